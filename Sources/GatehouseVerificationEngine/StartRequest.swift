import Foundation
import GatehouseCore

/// What a client asked for when starting a verification, already decoded from its dialect
/// but not yet validated.
public struct StartRequest: Sendable, Equatable {
    public var destination: String?
    public var deliveryMethod: String?
    public var languages: [String]?
    /// Android SMS Retriever hash (SMS only), as the older `sms.app_hash` field sends it.
    public var appHash: String?
    /// The autofill marker asked for (SMS only); `nil` keeps the application's default.
    public var autofill: AutofillRequest?
    public var templateGroup: String?
    /// Forwarded to the request callback, never stored or returned.
    public var custom: String?

    public init(
        destination: String?, deliveryMethod: String?, languages: [String]? = nil, appHash: String? = nil,
        autofill: AutofillRequest? = nil, templateGroup: String? = nil, custom: String? = nil
    ) {
        self.destination = destination
        self.deliveryMethod = deliveryMethod
        self.languages = languages
        self.appHash = appHash
        self.autofill = autofill
        self.templateGroup = templateGroup
        self.custom = custom
    }
}

extension VerificationEngine {
    /// The field checks of a start, without starting anything (the dialect merges them
    /// with its own type errors so that one response lists every failing field).
    public static func validate(_ request: StartRequest) throws {
        _ = try ValidStart.validate(request)
    }
}

/// A validated start: the checks of §6 turned into values.
struct ValidStart {
    let destination: String
    let channel: VerificationChannel
    let languages: [String]
    let appHash: String?
    let autofill: String?
    let templateGroup: String?
    let custom: String?
    /// Gatehouse's own flows only: the text to send instead of a template, with `{{CODE}}`.
    var template: String? = nil
    /// The destination as libphonenumber reads it, parsed once for the whole start (its
    /// country, line type and prefix); nil for email and for digits it cannot read.
    let number: PhoneNumber?

    /// `parsed`: the destination as `validate` read it already (else it is read here).
    init(
        destination: String, channel: VerificationChannel, languages: [String], appHash: String?, autofill: String?, templateGroup: String?,
        custom: String?, parsed: Result<PhoneNumber, any Error>? = nil
    ) {
        self.destination = destination
        self.channel = channel
        self.languages = languages
        self.appHash = appHash
        self.autofill = autofill
        self.templateGroup = templateGroup
        self.custom = custom
        number = channel == .email ? nil : try? (parsed ?? Result { try PhoneNumber.parseDigits(destination) }).get()
    }

    /// Nothing but `CharacterSet.whitespaces`, without trimming a copy: the first other
    /// character ends the look.
    private static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains)
    }

    /// Every failing field is reported together, as the vendor's API does.
    static func validate(_ request: StartRequest) throws -> ValidStart {
        var errors: [VerificationErrorCode] = []
        var destination: String?
        if let raw = request.destination, !isBlank(raw) {
            destination = Destination.normalize(raw)
            if destination == nil { errors.append(.destinationInvalid) }
        } else {
            errors.append(.destinationBlank)
        }
        var channel: VerificationChannel?
        if let method = request.deliveryMethod, !method.isEmpty {
            channel = VerificationChannel(deliveryMethod: method)
            if channel == nil { errors.append(.deliveryMethodUnknown) }
        } else {
            errors.append(.deliveryMethodBlank)
        }
        if let languages = request.languages, !languages.allSatisfy(LanguageCatalog.isWellFormed) {
            errors.append(.languagesInvalid)
        }
        if let hash = request.appHash, !MessageRenderer.isValidAppHash(hash) { errors.append(.appHashInvalid) }
        if let custom = request.custom, custom.count > 4096 { errors.append(.customTooLong) }
        var appHash = request.appHash
        var autofill: String?
        switch request.autofill {
        case .appHash(let hash)?:
            if !MessageRenderer.isValidAppHash(hash) {
                if !errors.contains(.appHashInvalid) { errors.append(.appHashInvalid) }
            } else if let legacy = appHash, legacy != hash {
                // Two different hashes for one message: neither can be the one meant.
                errors.append(.validationFailed)
            }
            appHash = hash
        case .domain?: autofill = "domain"
        case .disabled?: autofill = "none"
        case .unknown?: errors.append(.validationFailed)
        case nil: break
        }
        // A number under a calling code no country has (+999…) reaches no one: refused like a
        // malformed one. Numbers libphonenumber reads otherwise (an unallocated range of a real
        // country, a non-geographic +882) go on, to the guard's budgets.
        var parsed: Result<PhoneNumber, any Error>?
        if let destination, channel != .email {
            parsed = Result { try PhoneNumber.parseDigits(destination) }
            if case .failure(PhoneNumberError.invalidCountryCode)? = parsed, !errors.contains(.destinationInvalid) { errors.append(.destinationInvalid) }
        }
        guard errors.isEmpty, let destination, let channel else { throw VerificationFailure(errors) }
        return ValidStart(
            destination: destination, channel: channel, languages: request.languages ?? [],
            appHash: channel == .sms ? appHash : nil, autofill: channel == .sms ? autofill : nil,
            templateGroup: request.templateGroup.flatMap { $0.isEmpty ? nil : $0 },
            custom: request.custom.flatMap { $0.isEmpty ? nil : $0 }, parsed: parsed)
    }
}
