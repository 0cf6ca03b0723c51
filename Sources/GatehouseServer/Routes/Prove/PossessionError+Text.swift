import GatehouseCore
import GatehousePossessionEngine

/// How a possession refusal reads in Prove's messages ("field 'flowType' is missing") and on
/// the operator API.
extension PossessionError {
    var text: String {
        switch reason {
        case .missing(let field): "field '\(field)' is missing"
        case .missingEither(let field, let other): "field '\(field)' or '\(other)' is missing"
        case .missingOrAlternative(let field, let alternative): "field '\(field)' (or '\(alternative)') is missing"
        case .field(let field, let rule): rule.proveSentence(field)
        case .possessionField(let field, let rule): "field '\(field)' \(rule.predicate)"
        case .phoneNumber(let field, let problem): "\(field) \(problem.predicate)"
        case .phoneNumberNeeded: "a phone number is needed"
        case .noPossessionKey: "this server has no possession-secret-key"
        case .identityUnreadable: "an identity record does not open under this server's possession-secret-key"
        case .noIdentityForNumber: "no identity for that number"
        case .noSuchClient: "no such client"
        case .badClientCredentials: "invalid client credentials"
        case .badAccessToken: "invalid access token"
        case .badAuthToken: "the authToken is not valid"
        case .authTokenUsed: "the authToken was already used"
        case .badDeviceToken: "the device token is not valid"
        case .unknownCorrelationId: "invalid correlation ID"
        case .flowExpired: "the flow has expired"
        case .stepOutOfOrder: "step not allowed"
        case .flowChanged: "the flow changed meanwhile"
        case .noCodeToSend: "no code may be sent now"
        case .noCodeDue: "no code is due"
        case .noCarrierCheckDue: "no carrier check is due"
        case .carrierCheckDecided: "the carrier check was already decided"
        case .testModeOnProduction: "test mode is for sandbox tenants only"
        case .wrongCode: "the code is not valid"
        case .codeExpired: "the code has expired"
        case .noTriesLeft: "no tries are left for this code"
        case .codeSentRecently: "a code went to this number moments ago"
        case .tooManyCodes: "too many codes for this number; try later"
        case .numberHeldBack: "codes to numbers like this one are held back for now; try later"
        }
    }
}

extension PossessionError.Rule {
    /// What follows "field 'x' ": "must be YYYY-MM-DD".
    var predicate: String {
        switch self {
        case .developmentOnly: "is for development servers only"
        case .carrierEndpoint: "must be an https URL without query or fragment (http only in development)"
        case .targetURL(let maxLength): "must be an http(s) URL of at most \(maxLength) characters from [A-Za-z0-9-._+=/:?]"
        case .ipv4OrIPv6Address: "is not an IPv4 or IPv6 address"
        case .noHiddenCharacters: "must not contain control or invisible format characters"
        case .codeRun(let lengths): "must hold the code as one run of \(Self.hashes(lengths))"
        case .codeRunNotPlaceholder(let lengths): "must hold the code as \(Self.hashes(lengths)), not {{…}}"
        case .completeDate: "must be YYYY-MM-DD"
        case .dateOrPart: "must be YYYY-MM-DD, YYYY-MM or MM-DD"
        case .ssnOrLastFour: "must be 9 digits or the last 4"
        case .printableText(let range): "must be \(PossessionError.span(range)) printable characters"
        case .printableParts(let range): "parts must be \(PossessionError.span(range)) printable characters"
        case .emailAddresses: "holds something that is not an email address"
        case .atMostAddresses(let addresses, let emailAddresses): "may hold at most \(addresses) addresses and \(emailAddresses) email addresses"
        case .atMostRecords(let limit): "must hold at most \(limit) records"
        case .thisFlowsCarrierCheck: "is not this flow's carrier check"
        }
    }

    /// "#### to ######".
    private static func hashes(_ lengths: ClosedRange<Int>) -> String {
        let shortest = String(repeating: "#", count: lengths.lowerBound)
        return lengths.lowerBound == lengths.upperBound ? shortest : shortest + " to " + String(repeating: "#", count: lengths.upperBound)
    }
}

extension PossessionError.PhoneProblem {
    /// What follows the field's name: "is not a mobile number".
    var predicate: String {
        switch self {
        case .notANumber: "is not a phone number"
        case .notPossible: "is not a possible number"
        case .notMobile: "is not a mobile number"
        case .notTheFlowsNumber: "is not the number this flow checks"
        }
    }
}

extension FieldRule {
    /// The sentence in Prove's words for the shared rules the possession engine uses
    /// ("field 'label' must be 1 to 100 characters"); any other reads as the shared sentence does.
    fileprivate func proveSentence(_ field: String) -> String {
        let subject = "field '\(field)'"
        return switch self {
        case .length(let range) where range.lowerBound == 0: "\(subject) must be at most \(range.upperBound) characters"
        case .length(let range): "\(subject) must be \(PossessionError.span(range)) characters"
        case .digits(let range): "\(subject) must be \(PossessionError.span(range)) digits"
        case .printableASCII(let range): "\(subject) must be \(PossessionError.span(range)) printable ASCII characters"
        case .oneOf(let values): "\(subject) must be \(PossessionError.alternatives(values))"
        case .emailAddress: "\(subject) is not an email address"
        default: sentence(subject)
        }
    }
}

extension PossessionError {
    /// "1 to 100", or "9" for a range of one.
    fileprivate static func span(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }

    /// "mobile or desktop"; "a, b or c".
    fileprivate static func alternatives(_ values: [String]) -> String {
        guard let last = values.last, values.count > 1 else { return values.first ?? "" }
        return values.dropLast().joined(separator: ", ") + " or " + last
    }
}
