/// A refused sign-in or account request; the raw values are Datacove `error.code`s.
public struct AccountsError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case otpInvalid = "OTP_INVALID"
        case otpExpired = "OTP_EXPIRED"
        case otpTooManyAttempts = "OTP_TOO_MANY_ATTEMPTS"
        case rateLimited = "RATE_LIMITED"
        case validationFailed = "VALIDATION_FAILED"
        case accountDeleted = "ACCOUNT_DELETED"
    }

    public let code: Code
    public let message: String
    /// Seconds to wait, for the 429s.
    public let retryAfter: Int?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The HTTP status of the Datacove envelope.
    public var status: Int {
        switch code {
        case .otpInvalid, .otpExpired, .validationFailed: return 400
        case .otpTooManyAttempts, .rateLimited: return 429
        case .accountDeleted: return 401
        }
    }
}
