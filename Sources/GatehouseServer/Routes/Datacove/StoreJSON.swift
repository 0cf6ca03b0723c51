import Foundation
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// The request bodies of the store setup and of SubscriptionFlow, read into their wire types by
/// the one body decoder: an empty body is `{}`; a top-level member the type does not name is
/// refused by name before anything else, and one deeper down by the decoder; the decoder's
/// refusals are worded as commerce refusals, which each dialect renders in its envelope.
enum CommerceBody {
    /// `refusal`: a route's own words for a refusal at some path (nil: the general words).
    static func decode<T: Decodable, Key: CodingKey & CaseIterable>(
        _ type: T.Type, _ request: Request, keys: Key.Type, refusal: (BodyDecodingError) -> CommerceError? = { _ in nil }
    ) throws -> T {
        guard case .object(let members)? = try? request.jsonTree(emptyIsObject: true) else {
            throw CommerceError(.validationFailed, .bodyNotAnObject)
        }
        let named = Set(Key.allCases.map(\.stringValue))
        if let unknown = members.keys.sorted().first(where: { !named.contains($0) }) {
            throw CommerceError(.validationFailed, .unknownField(unknown))
        }
        do {
            return try JSONBodyDecoder(unknownKeys: .refuse).decode(T.self, from: .object(members))
        } catch {
            throw refusal(error) ?? refused(error)
        }
    }

    /// The general words: the field by its path (`ios.enabled`) and what it must be.
    static func refused(_ error: BodyDecodingError) -> CommerceError {
        let field = error.field
        switch error.problem {
        case .empty, .unreadable: return CommerceError(.validationFailed, .bodyNotAnObject)
        case .unknownKey: return CommerceError(.validationFailed, .unknownField(field))
        case .missing, .null: return .invalid(field, .required)
        case .wrongType(.string), .invalid: return .invalid(field, .string)
        case .wrongType(.boolean): return .invalid(field, .boolean)
        case .wrongType(.integer), .notInteger: return .invalid(field, .wholeNumber)
        case .wrongType(.number): return .invalid(field, .aNumber)
        case .wrongType(.array): return .invalid(field, .list)
        case .wrongType(.object): return .invalid(field, .anObject)
        }
    }
}

/// The store setup's answers in the shared wire types; no private key is ever among them.
enum StoreJSON {
    static func apple(_ config: AppleConfig) -> DatacoveWire.AppleConfig {
        DatacoveWire.AppleConfig(
            bundleId: config.bundleId, issuerId: config.issuerId, keyId: config.keyId, appAppleId: config.appAppleId,
            hasPrivateKey: config.hasPrivateKey, production: config.production, extraTrustedRootPEM: config.extraTrustedRootPEM,
            xcodeCertificatePEM: config.xcodeCertificatePEM, claimUntaggedPurchases: config.claimUntaggedPurchases)
    }

    static func googlePlay(_ config: GooglePlayConfig) -> DatacoveWire.GooglePlayConfig {
        DatacoveWire.GooglePlayConfig(
            packageName: config.packageName, hasServiceAccountKey: config.hasServiceAccountKey, clientEmail: config.clientEmail,
            keyFingerprint: config.keyFingerprint, pushAudience: config.pushAudience, pushServiceAccountEmail: config.pushServiceAccountEmail,
            production: config.production)
    }

    static func pricing(_ packages: [CreditPackage], provider: String) -> DatacoveWire.PricingConfig {
        DatacoveWire.PricingConfig(provider: provider, iapCreditPackages: packages.map {
            DatacoveWire.CreditPackage(platformProductId: $0.platformProductId, credits: $0.credits, displayName: $0.displayName)
        })
    }

    static func plan(_ plan: Plan) -> DatacoveWire.StorePlan {
        DatacoveWire.StorePlan(
            productId: plan.productId, displayName: plan.displayName, interval: plan.interval.rawValue,
            platformProductIds: ["apple": plan.applePlatformProductId].merging(plan.google.map { ["google": $0.description] } ?? [:]) { $1 },
            gatedWorkflowId: plan.gatedWorkflowId)
    }

    static func trial(_ config: TrialConfig) -> DatacoveWire.TrialConfig {
        DatacoveWire.TrialConfig(
            ios: .init(enabled: config.iosEnabled, durationDays: config.iosDurationDays),
            android: .init(enabled: config.androidEnabled, durationDays: config.androidDurationDays))
    }
}
