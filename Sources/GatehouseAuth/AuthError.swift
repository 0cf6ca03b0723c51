import Foundation

/// What a GatehouseAuth call can fail with. Cancellation is thrown as `CancellationError`, never as one of these.
public enum AuthError: Error, Equatable, Sendable {
    /// The server answered with a status of 400 or more; `code` is `error.code` when it sent one.
    case api(status: Int, code: AuthErrorCode?, message: String, retryAfter: TimeInterval?)
    /// The session is over (the server said so, or no tokens are stored); the user must sign in again.
    case signedOut(code: AuthErrorCode?)
    /// The request never got an HTTP answer (offline, timeout, TLS); the tokens are kept.
    case transport(String)
    /// The server answered something that is not the expected shape.
    case unexpectedResponse(String)
    /// The request could not be built (a path that is not a URL, a body that does not encode).
    case invalidRequest(String)

    /// The HTTP status of an `.api` error.
    public var status: Int? {
        if case .api(let status, _, _, _) = self { return status }
        return nil
    }

    /// The server's error code, for `.api` and `.signedOut`.
    public var code: AuthErrorCode? {
        switch self {
        case .api(_, let code, _, _), .signedOut(let code): return code
        case .transport, .unexpectedResponse, .invalidRequest: return nil
        }
    }

    /// Seconds the server asked to wait before retrying (429 `Retry-After`).
    public var retryAfter: TimeInterval? {
        if case .api(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}
