import Foundation

extension Response {
    /// Encodes `value` as a JSON response.
    public static func json<T: Encodable>(_ value: T, status: Int = 200, encoder: JSONEncoder = .gatehouse) throws -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(try encoder.encode(value)))
    }

    /// A JSON response from bytes already encoded.
    public static func json(raw: Data, status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(raw))
    }
}

extension JSONEncoder {
    /// Sorted keys and no escaped slashes: stable bytes for tests and signatures. One shared
    /// instance: encoding does not mutate it, and every reply used to build its own.
    public static let gatehouse: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension Request {
    /// Decodes the JSON body; malformed JSON or a wrong shape becomes a 400 naming the key path.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw HTTPError(status: 400, code: "invalid_body", message: Self.describe(error))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let joined = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return joined.isEmpty ? "body" : joined
        }
        switch error {
        case .typeMismatch(_, let context): return "\(path(context.codingPath)): wrong type"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)): value missing"
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])): required"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "body is not valid JSON" : "\(path(context.codingPath)): invalid value"
        @unknown default: return "body is invalid"
        }
    }
}
