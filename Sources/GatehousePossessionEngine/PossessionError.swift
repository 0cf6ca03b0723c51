import GatehouseCore

/// A refusal of the possession engine, with a code of its own meaning; the Prove dialect maps
/// it to its `{"code":…,"message":…}` body and status. It carries no text: `reason` says what
/// was refused, as data, and the server words it (`PossessionError+Text.swift`).
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

    /// What was refused.
    public enum Reason: Equatable, Sendable {
        /// A required field is missing.
        case missing(String)
        /// Neither of two fields was given, and either would do (`dob` or `ssn`).
        case missingEither(String, or: String)
        /// A field is missing, and so is the one that could stand in for it
        /// (`individual.firstName`, or else `individual.ssn`).
        case missingOrAlternative(String, alternative: String)
        /// A field's value breaks a rule the engines share.
        case field(String, FieldRule)
        /// A field's value breaks a rule of the possession engine's own.
        case possessionField(String, Rule)
        /// A number (from the field named) that cannot be checked or receive a code.
        case phoneNumber(String, PhoneProblem)
        /// The flow holds no number and the device gave none.
        case phoneNumberNeeded
        /// The server has no possession-secret-key.
        case noPossessionKey
        /// A stored identity record does not open under the server's possession-secret-key.
        case identityUnreadable
        /// The directory holds no identity for the number.
        case noIdentityForNumber
        /// The tenant has no such client.
        case noSuchClient
        /// Client credentials that name no client or do not match it.
        case badClientCredentials
        /// An access token that is malformed, forged, expired or revoked.
        case badAccessToken
        /// An authToken that is malformed, forged or names no flow.
        case badAuthToken
        /// An authToken that was already spent.
        case authTokenUsed
        /// A device token that is malformed, forged or names no flow.
        case badDeviceToken
        /// The `correlationId` names no flow of this tenant.
        case unknownCorrelationId
        /// The flow's lifetime is over.
        case flowExpired
        /// The server step asked for is not the flow's next one.
        case stepOutOfOrder
        /// Another request moved the flow on while this one ran.
        case flowChanged
        /// The flow is not at the step where a code is sent.
        case noCodeToSend
        /// The flow is not waiting for a code.
        case noCodeDue
        /// The flow is not waiting for a carrier check.
        case noCarrierCheckDue
        /// The carrier check was decided already.
        case carrierCheckDecided
        /// Test mode asked for on a production tenant.
        case testModeOnProduction
        /// A wrong code.
        case wrongCode
        /// The code's lifetime is over.
        case codeExpired
        /// No tries are left for the code.
        case noTriesLeft
        /// A code went to this number moments ago.
        case codeSentRecently
        /// Too many codes, or wrong codes, for this number in the hour.
        case tooManyCodes
        /// Codes to numbers of this prefix are held back (an operator's prefix block).
        case numberHeldBack
    }

    /// The rules a field's value must keep that only the possession engine has.
    public enum Rule: Equatable, Sendable {
        /// Allowed on development servers only.
        case developmentOnly
        /// An https URL with a host and no query or fragment (http too for a development carrier).
        case carrierEndpoint
        /// An http or https URL of at most so many characters from `[A-Za-z0-9-._+=/:?]`.
        case targetURL(maxLength: Int)
        /// An IPv4 or IPv6 address.
        case ipv4OrIPv6Address
        /// No control or invisible format characters.
        case noHiddenCharacters
        /// The code as one run of so many `#`.
        case codeRun(ClosedRange<Int>)
        /// The code as a run of so many `#`, where a `{{…}}` placeholder was given.
        case codeRunNotPlaceholder(ClosedRange<Int>)
        /// A complete date, YYYY-MM-DD.
        case completeDate
        /// A date, YYYY-MM-DD, or part of one: YYYY-MM or MM-DD.
        case dateOrPart
        /// An SSN's 9 digits or its last 4.
        case ssnOrLastFour
        /// So many printable characters.
        case printableText(ClosedRange<Int>)
        /// Each part (of each address) so many printable characters.
        case printableParts(ClosedRange<Int>)
        /// Email addresses, every one of them.
        case emailAddresses
        /// At most so many addresses and so many email addresses.
        case atMostAddresses(Int, emailAddresses: Int)
        /// At most so many records.
        case atMostRecords(Int)
        /// The carrier check this flow asked for.
        case thisFlowsCarrierCheck
    }

    /// Why a number cannot be checked or receive a code.
    public enum PhoneProblem: Equatable, Sendable {
        /// It does not parse as a phone number.
        case notANumber
        /// It parses, but no numbering plan could hold it (sandbox).
        case notPossible
        /// It is not a valid number that can take an SMS (production).
        case notMobile
        /// It is not the number the flow checks.
        case notTheFlowsNumber
    }

    public let code: Code
    public let reason: Reason
    /// Seconds until another code may be sent, for `otpSentRecently` and `rateLimited`.
    public let retryAfter: Int?

    public init(_ code: Code, _ reason: Reason, retryAfter: Int? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// The request field at fault, for `fieldMissing`, `fieldInvalid` and `phoneNumberInvalid`.
    public var field: String? {
        switch reason {
        case .missing(let field), .missingEither(let field, _), .missingOrAlternative(let field, _), .field(let field, _),
            .possessionField(let field, _), .phoneNumber(let field, _):
            field
        case .phoneNumberNeeded: "phoneNumber"
        default: nil
        }
    }

    /// A required field is missing.
    public static func missing(_ field: String) -> PossessionError { PossessionError(.fieldMissing, .missing(field)) }

    /// A field's value breaks a rule the engines share.
    public static func invalid(_ field: String, _ rule: FieldRule) -> PossessionError { PossessionError(.fieldInvalid, .field(field, rule)) }

    /// A field's value breaks a rule of the possession engine's own.
    public static func invalid(_ field: String, _ rule: Rule) -> PossessionError { PossessionError(.fieldInvalid, .possessionField(field, rule)) }

    public var description: String { "\(code): \(reason)" }
}
