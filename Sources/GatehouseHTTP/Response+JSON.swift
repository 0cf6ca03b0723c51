import Foundation
import GatehouseFormats

extension Response {
    /// Encodes `value` as a JSON response: the bytes `JSONEncoder.gatehouse` would write, by
    /// the cheaper `SortedJSONEncoder`.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(try SortedJSONEncoder.encode(value)))
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
    /// The body's JSON tree: the one the edge read, or (for a request no server read) read now
    /// by the same rules. `emptyIsObject`: an empty body is `{}` (an update that changes
    /// nothing); otherwise it is refused as `.empty`.
    public func jsonTree(emptyIsObject: Bool = false) throws(BodyDecodingError) -> JSONValue {
        if let json { return json }
        if body.isEmpty {
            if emptyIsObject { return .object([:]) }
            throw BodyDecodingError(path: [], problem: .empty)
        }
        do { return try JSONReader.parse(body) } catch { throw BodyDecodingError(path: [], problem: .unreadable(error)) }
    }

    /// The body as `T`, through the one body decoder (`JSONBodyDecoder`); each dialect maps
    /// the error to its envelope.
    public func decodeBody<T: Decodable>(
        _ type: T.Type, unknownKeys: JSONBodyDecoder.UnknownKeys, emptyIsObject: Bool = false
    ) throws(BodyDecodingError) -> T {
        try JSONBodyDecoder(unknownKeys: unknownKeys).decode(T.self, from: try jsonTree(emptyIsObject: emptyIsObject))
    }

    /// Decodes the JSON body, ignoring members `T` does not read; a body that is not JSON or
    /// not of `T`'s shape becomes a 400 naming the key path.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try decodeBody(T.self, unknownKeys: .ignore)
        } catch {
            throw HTTPError(error)
        }
    }
}

extension HTTPError {
    /// The generic words for a body that could not be decoded, as `invalid_body` (or the
    /// reader's own refusal of text that is not JSON).
    public init(_ error: BodyDecodingError) {
        switch error.problem {
        case .empty: self = .badRequest("a JSON body is required", code: "invalid_body")
        case .unreadable(let refusal): self = .refusedJSON(refusal, maxDepth: JSONReader.defaultMaxDepth)
        case .missing: self = .badRequest("\(error.field): required", code: "invalid_body")
        case .null: self = .badRequest("\(error.field): cannot be null", code: "invalid_body")
        case .wrongType, .notInteger: self = .badRequest("\(error.field): wrong type", code: "invalid_body")
        case .unknownKey: self = .badRequest("unknown field: \(error.field)", code: "unknown_field")
        case .invalid: self = .badRequest("\(error.field): invalid value", code: "invalid_body")
        }
    }
}
