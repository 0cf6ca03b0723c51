import Foundation
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The store setup's bodies are read into their wire types once (`CommerceBody`), and each
/// refusal reads as the Datacove dialect words it: pinned here literally. In process: the
/// routes are the subject, not the transport.
@Suite struct StoreSetupBodyTests {
    static func message(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> String? {
        (reply.json["error"] as? [String: Any])?["message"] as? String
    }

    @Test(arguments: TestDatabaseKind.available)
    func refusalsNameTheFieldAndWhatItMustBe(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind, inProcess: true)
        let base = "tenants/v1/\(store.live.credentials.tenantId)/"
        let admin = store.live.credentials.adminToken
        let cases: [(String, String, [String: Any], String)] = [
            ("PATCH", "apple-config", ["bundleId": 5], "bundleId must be a string"),
            ("PATCH", "apple-config", ["appAppleId": 1.5], "appAppleId must be a whole number"),
            ("PATCH", "apple-config", ["production": "yes"], "production must be true or false"),
            ("PATCH", "apple-config", ["bundleID": "com.example.app"], "unknown field: bundleID"),
            ("PUT", "pricing-config", [:], "iapCreditPackages must be a list"),
            ("PUT", "pricing-config", ["iapCreditPackages": "none"], "iapCreditPackages must be a list"),
            ("PUT", "pricing-config", ["iapCreditPackages": [["credits": 5]]], "each package must be an object with platformProductId and credits"),
            ("POST", "service-entitlement-products", ["interval": "weekly", "platformProductIds": ["apple": "p"]],
             "interval must be monthly, annual or one_time_year"),
            ("POST", "service-entitlement-products", ["interval": 7], "interval must be a string"),
            ("POST", "service-entitlement-products", ["interval": "monthly", "platformProductIds": ["apple": 5]], "platformProductIds.apple is required"),
            ("POST", "service-entitlement-products", ["interval": "monthly", "platformProductIds": ["apple": "p", "google": 5]],
             "platformProductIds.google must be a string"),
            ("POST", "service-entitlement-products", ["interval": "monthly", "platformProductIds": [:]], "platformProductIds.apple is required"),
            ("POST", "service-entitlement-products", ["interval": "monthly", "platformProductIds": "p"], "platformProductIds.apple is required"),
            ("PATCH", "trial-config", ["ios": 5], "ios must be an object with enabled and durationDays"),
            ("PATCH", "trial-config", ["ios": ["enabled": true, "days": 3]], "ios must be an object with enabled and durationDays"),
            ("PATCH", "trial-config", ["ios": ["enabled": "yes"]], "ios.enabled must be true or false"),
            ("PATCH", "trial-config", ["ios": ["durationDays": 2.5]], "ios.durationDays must be a whole number"),
        ]
        for (method, path, body, text) in cases {
            let reply = try await store.client.call(method, base + path, body, token: admin)
            #expect(reply.status == 400, "\(method) \(path) \(body)")
            #expect(Self.message(reply) == text, "\(method) \(path) \(body)")
        }
        await store.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aPatchKeepsWhatItLeavesOutAndNullClearsACertificate(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind, inProcess: true)
        let path = "tenants/v1/\(store.live.credentials.tenantId)/apple-config"
        let admin = store.live.credentials.adminToken
        let pem = store.chain.rootPEM
        let set = try await store.client.call("PATCH", path, ["extraTrustedRootPEM": pem], token: admin)
        #expect(set.status == 200 && set.json["extraTrustedRootPEM"] as? String == pem)
        let kept = try await store.client.call("PATCH", path, ["claimUntaggedPurchases": true], token: admin)
        #expect(kept.json["extraTrustedRootPEM"] as? String == pem && kept.json["claimUntaggedPurchases"] as? Bool == true)
        #expect(kept.json["bundleId"] as? String == StoreFixture.bundleID)
        let cleared = try await store.client.call("PATCH", path, ["extraTrustedRootPEM": NSNull()], token: admin)
        #expect(cleared.status == 200 && cleared.json["extraTrustedRootPEM"] is NSNull)
        #expect(cleared.json["claimUntaggedPurchases"] as? Bool == true)
        let trial = try await store.client.call("PATCH", "tenants/v1/\(store.live.credentials.tenantId)/trial-config", ["ios": ["durationDays": 5]], token: admin)
        #expect(trial.status == 200 && (trial.json["ios"] as? [String: Any])?["durationDays"] as? Int == 5)
        await store.stop()
    }
}
