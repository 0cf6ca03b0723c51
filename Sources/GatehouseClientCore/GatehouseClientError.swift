import Foundation

/// An error code from a Gatehouse API. Open: codes the server adds later still decode.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let notFound: ErrorCode = "not_found"
    public static let unauthorized: ErrorCode = "unauthorized"
    public static let invalidBody: ErrorCode = "invalid_body"
    public static let unknownField: ErrorCode = "unknown_field"
    public static let payloadTooLarge: ErrorCode = "payload_too_large"
    public static let internalError: ErrorCode = "internal_error"
}

/// What an SDK call can fail with.
public enum GatehouseClientError: Error, Equatable, Sendable {
    /// The server answered with its error envelope.
    case api(status: Int, code: ErrorCode, message: String, requestId: String?)
    /// The server answered something that is not the expected shape.
    case unexpectedResponse(String)
    /// The request could not be built (a bad base URL or path).
    case invalidRequest(String)

    /// The error code when the server sent one.
    public var code: ErrorCode? {
        if case .api(_, let code, _, _) = self { return code }
        return nil
    }
}
