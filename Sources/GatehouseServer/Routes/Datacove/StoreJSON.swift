import Foundation
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire

/// A JSON object body of the store setup calls, with unknown keys refused.
struct StoreBody {
    let fields: [String: JSONValue]

    init(_ request: Request, allowed: Set<String>) throws {
        guard case .object(let object)? = try? JSONValue(parsing: request.body.isEmpty ? Data("{}".utf8) : request.body)
        else { throw CommerceError(.validationFailed, "The body must be a JSON object.") }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw CommerceError(.validationFailed, "unknown field: \(unknown)")
        }
        fields = object
    }

    func string(_ key: String) throws -> String? {
        guard let value = fields[key], value != .null else { return nil }
        guard let text = value.string else { throw CommerceError(.validationFailed, "\(key) must be a string") }
        return text
    }

    func int(_ key: String) throws -> Int? {
        guard let value = fields[key], value != .null else { return nil }
        guard let number = value.int else { throw CommerceError(.validationFailed, "\(key) must be a whole number") }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = fields[key], value != .null else { return nil }
        guard let flag = value.bool else { throw CommerceError(.validationFailed, "\(key) must be true or false") }
        return flag
    }
}

/// The store setup's answers; the private key is never among them.
enum StoreJSON {
    static func apple(_ config: AppleConfig) -> [String: JSONValue] {
        [
            "bundleId": config.bundleId.map(JSONValue.string) ?? .null, "issuerId": config.issuerId.map(JSONValue.string) ?? .null,
            "keyId": config.keyId.map(JSONValue.string) ?? .null, "appAppleId": config.appAppleId.map { .number(Double($0)) } ?? .null,
            "hasPrivateKey": .bool(config.hasPrivateKey), "production": .bool(config.production),
            "extraTrustedRootPEM": config.extraTrustedRootPEM.map(JSONValue.string) ?? .null,
            "xcodeCertificatePEM": config.xcodeCertificatePEM.map(JSONValue.string) ?? .null,
            "claimUntaggedPurchases": .bool(config.claimUntaggedPurchases),
        ]
    }

    static func pricing(_ packages: [CreditPackage]) -> [String: JSONValue] {
        [
            "provider": .string("apple"),
            "iapCreditPackages": .array(packages.map { package in
                .object([
                    "platformProductId": .string(package.platformProductId), "credits": .number(Double(package.credits)),
                    "displayName": package.displayName.map(JSONValue.string) ?? .null,
                ])
            }),
        ]
    }

    static func plan(_ plan: Plan) -> JSONValue {
        .object([
            "productId": .string(plan.productId), "displayName": .string(plan.displayName), "interval": .string(plan.interval.rawValue),
            "platformProductIds": .object(["apple": .string(plan.applePlatformProductId)]),
            "gatedWorkflowId": plan.gatedWorkflowId.map(JSONValue.string) ?? .null,
        ])
    }

    static func trial(_ config: TrialConfig) -> [String: JSONValue] {
        ["ios": .object(["enabled": .bool(config.iosEnabled), "durationDays": .number(Double(config.iosDurationDays))])]
    }
}
