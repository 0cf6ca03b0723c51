/// Why a token or session was refused, in the engine's own terms. The raw value is what a
/// revoked session stores as its reason; each dialect maps a code to its own.
public enum SessionErrorCode: String, Sendable, CaseIterable {
    /// The account signed in on another device past the session limit.
    case sessionEvicted = "evicted"
    /// A refresh token was presented after it had been rotated.
    case tokenReused = "refresh_reused"
    /// The access token, the refresh token or the session's lifetime has passed.
    case tokenExpired = "expired"
    /// The token is malformed or not one of ours.
    case tokenInvalid = "invalid"
    /// The session was signed out or never existed.
    case sessionNotFound = "ended"
    /// The account has been deleted.
    case accountDeleted = "account_deleted"
}

/// A refused token or session.
public struct SessionError: Error, Equatable, Sendable {
    public let code: SessionErrorCode
    public init(_ code: SessionErrorCode) { self.code = code }
}
