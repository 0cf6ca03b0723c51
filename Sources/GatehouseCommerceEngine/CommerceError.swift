import GatehouseCore

/// A refused commerce request, in the engine's own terms: `code` is stable and says what went
/// wrong, `reason` says what was refused, as data; each dialect maps the code to its status and
/// envelope and words the reason (`CommerceError+Text.swift` in the server).
public struct CommerceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, CaseIterable {
        /// A value fails its check.
        case validationFailed
        /// No such thing for this tenant.
        case notFound
        /// The change contradicts something that already exists.
        case conflict
        /// The server has no key to seal a secret with: its configuration, not the request, is short.
        case secretKeyMissing
    }

    /// The things of commerce a refusal can name.
    public enum Thing: Sendable, CaseIterable {
        case appStoreConfiguration, googlePlayConfiguration, accountToken, plan
    }

    /// An App Store Connect setting that is not what Apple issues.
    public enum AppStoreSetting: Sendable, CaseIterable {
        /// Not the contents of a `.p8` key file.
        case privateKey
        /// Not a bundle identifier.
        case bundleID
        /// Not a numeric Apple ID.
        case appAppleID
        /// Not the EC P-256 certificate Xcode exports for local StoreKit testing.
        case xcodeCertificate
    }

    /// A Google Play setting that is not what Google issues.
    public enum GooglePlaySetting: Sendable, CaseIterable {
        /// Not a service account's JSON key file with an RSA key that signs.
        case serviceAccountKey
        /// Not an Android application id.
        case packageName
        /// Not a Play subscription id, or `subscriptionId:basePlanId`.
        case subscriptionID
    }

    /// What was refused.
    public enum Reason: Equatable, Sendable {
        case noSuch(Thing)
        /// A field's value breaks its rule.
        case field(String, FieldRule)
        /// An App Store Connect setting that is not what Apple issues.
        case appStore(AppStoreSetting)
        /// A Google Play setting that is not what Google issues.
        case googlePlay(GooglePlaySetting)
        /// The server has no key to seal a secret with (`store-secret-key`), so it keeps none.
        case noSealingKey
        /// A setting only sandbox tenants may hold (an extra trusted root, Xcode's certificate).
        case sandboxOnly(String)
        /// One store product id given twice in one catalogue.
        case productListedTwice
        /// Another plan already sells this App Store product.
        case productTaken
        /// Another plan already sells this Google Play subscription (or base plan).
        case googleSubscriptionTaken
        /// The body is not a JSON object.
        case bodyNotAnObject
        /// The body names a field this request does not take.
        case unknownField(String)
    }

    public let code: Code
    public let reason: Reason

    public init(_ code: Code, _ reason: Reason) {
        self.code = code
        self.reason = reason
    }

    /// A field's value breaks its rule.
    public static func invalid(_ field: String, _ rule: FieldRule) -> CommerceError { CommerceError(.validationFailed, .field(field, rule)) }

    public static func notFound(_ thing: Thing) -> CommerceError { CommerceError(.notFound, .noSuch(thing)) }

    public var description: String { "\(code): \(reason)" }
}
