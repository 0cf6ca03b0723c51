/// A refusal of the possession engine, with a code of its own meaning; the Prove dialect maps
/// it to its `{"code":…,"message":…}` body and status.
public struct PossessionError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A required field is missing (`field` names it).
        case fieldMissing
        /// A field's value is not valid (`field` names it).
        case fieldInvalid
        /// The operation is not one the flow allows now.
        case stepNotAllowed
        /// The flow's lifetime is over.
        case flowExpired
        /// A bearer that is not valid: an unknown client, a spent or forged authToken.
        case unauthorized
        /// A wrong code; the user may try again.
        case otpInvalid
        /// The code's lifetime is over; the flow has failed.
        case otpExpired
        /// No tries left; the flow has failed.
        case otpAttemptsExhausted
        /// The number cannot be checked or receive a code.
        case phoneNumberInvalid
        /// Test mode asked for on a production tenant.
        case testModeRefused
        /// No such thing for this tenant: an identity, a client.
        case notFound
        /// The `correlationId` names no flow of this tenant (another tenant's flow is none).
        case noSuchFlow
        /// A code went to this number moments ago.
        case otpSentRecently
        /// Too many codes or wrong codes for one number in the hour (`retryAfter` says when).
        case rateLimited
        /// The server has no possession key, so it cannot seal identity data or sign tokens.
        case notConfigured
    }

    public let code: Code
    public let message: String
    /// The request field at fault, for `fieldMissing` and `fieldInvalid`.
    public let field: String?
    /// Seconds until another code may be sent, for `otpSentRecently` and `rateLimited`.
    public let retryAfter: Int?

    public init(_ code: Code, _ message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    static func missing(_ field: String) -> PossessionError { PossessionError(.fieldMissing, "field '\(field)' is missing", field: field) }
    static func invalid(_ field: String, _ why: String) -> PossessionError {
        PossessionError(.fieldInvalid, "field '\(field)' \(why)", field: field)
    }

    public var description: String { "\(code): \(message)" }
}
