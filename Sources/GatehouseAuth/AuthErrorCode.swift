/// An error code from the `error.code` field of the auth API's envelope. Open: codes the server adds later still decode.
public struct AuthErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code as the server spells it.
    public let rawValue: String
    /// A code from its raw spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A code from a literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The raw spelling.
    public var description: String { rawValue }

    /// The session was ended because the account signed in on too many devices.
    public static let sessionEvicted: AuthErrorCode = "SESSION_EVICTED"
    /// An already rotated refresh token was presented again; the server ended the session.
    public static let tokenReused: AuthErrorCode = "TOKEN_REUSED"
    /// The token has expired.
    public static let tokenExpired: AuthErrorCode = "TOKEN_EXPIRED"
    /// The session no longer exists (signed out elsewhere or revoked).
    public static let sessionNotFound: AuthErrorCode = "SESSION_NOT_FOUND"
    /// The account was deleted.
    public static let accountDeleted: AuthErrorCode = "ACCOUNT_DELETED"
    /// The token is malformed or was not issued by this server.
    public static let tokenInvalid: AuthErrorCode = "TOKEN_INVALID"
    /// The one-time code is wrong.
    public static let otpInvalid: AuthErrorCode = "OTP_INVALID"
    /// The one-time code has expired; request a new one.
    public static let otpExpired: AuthErrorCode = "OTP_EXPIRED"
    /// Too many wrong codes; request a new one.
    public static let otpTooManyAttempts: AuthErrorCode = "OTP_TOO_MANY_ATTEMPTS"
    /// Too many requests; wait for `retryAfter`.
    public static let rateLimited: AuthErrorCode = "RATE_LIMITED"
    /// The request body failed validation.
    public static let validationFailed: AuthErrorCode = "VALIDATION_FAILED"
    /// The platform API key is missing or wrong.
    public static let apiKeyInvalid: AuthErrorCode = "API_KEY_INVALID"

    /// Codes that, on a 401 from refresh, mean the session is over for good.
    public static let signOutCodes: Set<AuthErrorCode> = [
        .sessionEvicted, .tokenReused, .tokenExpired, .sessionNotFound, .accountDeleted, .tokenInvalid,
    ]

    /// Codes that, on a 401 from an authenticated call that already had a fresh token, end the session.
    /// TOKEN_INVALID and TOKEN_EXPIRED are left out: there they describe the access token, which a refresh replaces.
    public static let sessionEndedCodes: Set<AuthErrorCode> = [
        .sessionEvicted, .tokenReused, .sessionNotFound, .accountDeleted,
    ]
}
