import Foundation

/// An error code of Gatehouse's own operator API. Open: codes the server adds later still decode.
package struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package init(stringLiteral value: String) { rawValue = value }
    package var description: String { rawValue }

    package static let notFound: ErrorCode = "not_found"
    package static let unauthorized: ErrorCode = "unauthorized"
    package static let invalidBody: ErrorCode = "invalid_body"
    package static let unknownField: ErrorCode = "unknown_field"
    package static let payloadTooLarge: ErrorCode = "payload_too_large"
    package static let internalError: ErrorCode = "internal_error"
}

/// What an operator API call can fail with; SDK products map it to their own public errors.
package enum GatehouseClientError: Error, Equatable, Sendable {
    /// The server answered with its error envelope.
    case api(status: Int, code: ErrorCode, message: String, requestId: String?)
    /// The server answered something that is not the expected shape.
    case unexpectedResponse(String)
    /// The request could not be built (a bad base URL or path).
    case invalidRequest(String)

    /// The error code when the server sent one.
    package var code: ErrorCode? {
        if case .api(_, let code, _, _) = self { return code }
        return nil
    }
}
