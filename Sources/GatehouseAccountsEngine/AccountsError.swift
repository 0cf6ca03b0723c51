/// A refused sign-in or account request, in the engine's own terms; each dialect maps a
/// code to its envelope, status and text.
public struct AccountsError: Error, Equatable, Sendable {
    public enum Code: Sendable, CaseIterable {
        /// The code is wrong, malformed, or not for this identifier.
        case codeInvalid
        /// The code's lifetime has passed.
        case codeExpired
        /// The code used up its attempts; a new one must be asked for.
        case codeAttemptsUsed
        /// Too many wrong codes for this identifier in the hour; `retryAfter` says how long.
        case tooManyWrongCodes
        /// A code was sent moments ago; `retryAfter` says how long to wait.
        case codeSentRecently
        /// Codes to numbers like this one are held back (SMS-pumping guard); `retryAfter` may say how long.
        case sendingLimited
        /// The phone number is not a possible international number.
        case phoneNumberInvalid
        /// The email address is not one.
        case emailInvalid
        /// The display name is empty, too long or holds control characters.
        case nameInvalid
        /// The time zone is not an IANA zone.
        case timezoneInvalid
    }

    public let code: Code
    /// Seconds to wait, for the limits.
    public let retryAfter: Int?

    public init(_ code: Code, retryAfter: Int? = nil) {
        self.code = code
        self.retryAfter = retryAfter
    }
}
