import Foundation

/// One element of the API's error envelope: `{"code": …, "detail": …}`.
public struct APIErrorItem: Sendable, Equatable {
    /// The raw error code, always present, e.g. `destination_blank`.
    public let code: String
    /// Fixed human-readable text for ``code``; display it, do not branch on it.
    public let detail: String
    /// Seconds from the response's `Retry-After` header, or `nil` without a usable header.
    public let retryAfter: TimeInterval?

    /// The typed code when this SDK version knows it, otherwise `nil`; not part of equality.
    public var known: APIErrorCode? { APIErrorCode(rawValue: code) }

    /// Creates an error item.
    public init(code: String, detail: String, retryAfter: TimeInterval? = nil) {
        self.code = code
        self.detail = detail
        self.retryAfter = retryAfter
    }
}
