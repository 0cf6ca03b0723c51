import Foundation

/// The wire shapes of the DIDWW Verification API (seed 001, the published OpenAPI), shared by
/// the server's dialect and the `GatehouseVerification` SDK. Replies encode every key the
/// server sends (nulls written out) and decode as leniently as the SDK reads them.
public enum DIDWWWire {
    /// `{"data": …}` around every request and success reply.
    public struct Envelope<Payload>: Sendable where Payload: Sendable {
        public let data: Payload
        public init(data: Payload) { self.data = data }
    }

    /// `{"errors": [{"code", "detail"}]}`.
    public struct ErrorEnvelope: Codable, Sendable, Equatable {
        public let errors: [ErrorItem]
        public init(errors: [ErrorItem]) { self.errors = errors }
    }

    /// One coded error with its fixed text.
    public struct ErrorItem: Codable, Sendable, Equatable {
        public let code: String
        public let detail: String
        public init(code: String, detail: String) {
            self.code = code
            self.detail = detail
        }
    }
}

extension DIDWWWire.Envelope: Encodable where Payload: Encodable {}
extension DIDWWWire.Envelope: Decodable where Payload: Decodable {}
extension DIDWWWire.Envelope: Equatable where Payload: Equatable {}

extension DIDWWWire.ErrorEnvelope {
    private enum CodingKeys: String, CodingKey { case errors }

    /// Element by element: an element without a string `code` is skipped and its siblings
    /// kept, so one odd entry never hides the others.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var elements = try container.nestedUnkeyedContainer(forKey: .errors)
        var errors: [DIDWWWire.ErrorItem] = []
        while !elements.isAtEnd {
            if let element = try? elements.decode(DIDWWWire.ErrorItem.self) {
                errors.append(element)
            } else if (try? elements.decode(SkippedValue.self)) == nil {
                break
            }
        }
        self.errors = errors
    }
}

extension DIDWWWire.ErrorItem {
    private enum CodingKeys: String, CodingKey { case code, detail }

    /// A missing or non-string `detail` reads as `""`; unknown keys are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        detail = container.lenient(String.self, .detail) ?? ""
    }
}

/// Consumes one value of any shape, so a loop over an array can move past it.
struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension KeyedDecodingContainer {
    /// The value for `key`, or `nil` when it is absent, null or of another type.
    public func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
