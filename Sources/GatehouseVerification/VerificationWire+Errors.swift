extension VerificationWire {
    /// `{"errors": [{"code": …, "detail": …}]}`, read element by element.
    ///
    /// An element without a string `code` is skipped and its siblings kept; a missing or
    /// non-string `detail` becomes `""`; unknown keys are ignored.
    struct ErrorEnvelope: Decodable {
        let errors: [(code: String, detail: String)]

        enum CodingKeys: String, CodingKey { case errors }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            var elements = try container.nestedUnkeyedContainer(forKey: .errors)
            var errors: [(code: String, detail: String)] = []
            while !elements.isAtEnd {
                if let element = try? elements.decode(ErrorElement.self) {
                    errors.append((element.code, element.detail))
                } else if (try? elements.decode(Skip.self)) == nil {
                    break
                }
            }
            self.errors = errors
        }
    }

    struct ErrorElement: Decodable {
        let code: String
        let detail: String

        enum CodingKeys: String, CodingKey { case code, detail }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decode(String.self, forKey: .code)
            detail = container.lenient(String.self, .detail) ?? ""
        }
    }

    /// Consumes one array element of any shape so the loop can move past it.
    struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
