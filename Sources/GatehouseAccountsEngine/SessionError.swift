/// Why a token or session was refused; the raw values are the Datacove `error.code`s.
public enum SessionErrorCode: String, Sendable, CaseIterable {
    case sessionEvicted = "SESSION_EVICTED"
    case tokenReused = "TOKEN_REUSED"
    case tokenExpired = "TOKEN_EXPIRED"
    case tokenInvalid = "TOKEN_INVALID"
    case sessionNotFound = "SESSION_NOT_FOUND"
    case accountDeleted = "ACCOUNT_DELETED"

    /// Text for people, shown by apps as-is.
    public var message: String {
        switch self {
        case .sessionEvicted: return "You were signed out because this account signed in on another device."
        case .tokenReused: return "You were signed out because this session's refresh token was used twice."
        case .tokenExpired: return "Your session has expired. Sign in again."
        case .tokenInvalid: return "The token is not valid."
        case .sessionNotFound: return "This session has ended. Sign in again."
        case .accountDeleted: return "This account has been deleted."
        }
    }
}

/// A refused token or session: always HTTP 401 in the Datacove dialect.
public struct SessionError: Error, Equatable, Sendable {
    public let code: SessionErrorCode
    public init(_ code: SessionErrorCode) { self.code = code }
}
