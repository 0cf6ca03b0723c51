import Foundation
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// A JSON object body of the store setup calls, read key by key from the tree the edge read
/// (a patch tells a left-out key from `null`), with unknown keys refused.
struct StoreBody {
    let fields: [String: JSONValue]

    init(_ request: Request, allowed: Set<String>) throws {
        guard case .object(let object)? = try? request.jsonTree(emptyIsObject: true)
        else { throw CommerceError(.validationFailed, .bodyNotAnObject) }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw CommerceError(.validationFailed, .unknownField(unknown))
        }
        fields = object
    }

    /// A body whose keys are those of a shared wire type.
    init<Key: CodingKey & CaseIterable>(_ request: Request, keys: Key.Type) throws {
        try self.init(request, allowed: Set(Key.allCases.map(\.stringValue)))
    }

    func string(_ key: some CodingKey) throws -> String? { try string(key.stringValue) }
    func has(_ key: some CodingKey) -> Bool { fields.keys.contains(key.stringValue) }
    func bool(_ key: some CodingKey) throws -> Bool? { try bool(key.stringValue) }

    func string(_ key: String) throws -> String? {
        guard let value = fields[key], value != .null else { return nil }
        guard let text = value.string else { throw CommerceError.invalid(key, .string) }
        return text
    }

    func int(_ key: String) throws -> Int? {
        guard let value = fields[key], value != .null else { return nil }
        guard let number = value.int else { throw CommerceError.invalid(key, .wholeNumber) }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = fields[key], value != .null else { return nil }
        guard let flag = value.bool else { throw CommerceError.invalid(key, .boolean) }
        return flag
    }
}

/// The store setup's answers in the shared wire types; the private key is never among them.
enum StoreJSON {
    static func apple(_ config: AppleConfig) -> DatacoveWire.AppleConfig {
        DatacoveWire.AppleConfig(
            bundleId: config.bundleId, issuerId: config.issuerId, keyId: config.keyId, appAppleId: config.appAppleId,
            hasPrivateKey: config.hasPrivateKey, production: config.production, extraTrustedRootPEM: config.extraTrustedRootPEM,
            xcodeCertificatePEM: config.xcodeCertificatePEM, claimUntaggedPurchases: config.claimUntaggedPurchases)
    }

    static func pricing(_ packages: [CreditPackage]) -> DatacoveWire.PricingConfig {
        DatacoveWire.PricingConfig(iapCreditPackages: packages.map {
            DatacoveWire.CreditPackage(platformProductId: $0.platformProductId, credits: $0.credits, displayName: $0.displayName)
        })
    }

    static func plan(_ plan: Plan) -> DatacoveWire.StorePlan {
        DatacoveWire.StorePlan(
            productId: plan.productId, displayName: plan.displayName, interval: plan.interval.rawValue,
            platformProductIds: ["apple": plan.applePlatformProductId], gatedWorkflowId: plan.gatedWorkflowId)
    }

    static func trial(_ config: TrialConfig) -> DatacoveWire.TrialConfig {
        DatacoveWire.TrialConfig(ios: .init(enabled: config.iosEnabled, durationDays: config.iosDurationDays))
    }
}
