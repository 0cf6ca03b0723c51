import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// A tenant's Google Play settings: the service account's key is checked, kept sealed under
/// the tenant, opened only by the engine, and named to the operator by its email and fingerprint.
@Suite struct GooglePlayConfigTests {
    @Test(arguments: TestDatabaseKind.available)
    func theKeyIsSealedUnderItsTenantAndOpensToWhatWasSaved(_ kind: TestDatabaseKind) async throws {
        let harness = try await CommerceHarness(kind)
        defer { harness.close() }
        let file = try GoogleServiceAccountKeyFile.generate()
        var patch = GooglePlayConfigPatch()
        (patch.packageName, patch.serviceAccountKey) = ("com.example.gatehouse", file.json)
        let saved = try await harness.engine.updateGooglePlayConfig(tenantID: harness.tenantID, patch)
        #expect(saved.clientEmail == file.clientEmail && saved.hasServiceAccountKey && saved.production)
        #expect(saved.keyFingerprint == (try RS256PrivateKey(pem: file.privateKeyPEM).publicKeyFingerprint()))

        let stored: String = try await harness.store.database.read { db in
            try db.queryOne("SELECT service_account_key FROM commerce_google_play_configs WHERE tenant_id = ?", harness.tenantID)!
                .get("service_account_key")
        }
        #expect(stored.hasPrefix("v1.") && !stored.contains("PRIVATE") && !stored.contains(file.clientEmail))
        let opened = try await harness.store.database.read { db in try harness.engine.serviceAccountKey(db, tenantID: harness.tenantID) }
        #expect(opened == ServiceAccountKey(clientEmail: file.clientEmail, privateKeyID: file.privateKeyID, privateKey: file.privateKeyPEM))

        // Copied to another tenant's row, the sealed key does not open there.
        let other = try await TenantDirectory(environment: harness.environment).createTenant(name: "Other").id
        _ = try await harness.engine.updateGooglePlayConfig(tenantID: other, GooglePlayConfigPatch())
        let copied = try await harness.store.database.write { db in
            try db.execute("UPDATE commerce_google_play_configs SET service_account_key = ? WHERE tenant_id = ?", stored, other)
            return try harness.engine.serviceAccountKey(db, tenantID: other)
        }
        #expect(copied == nil)

        // A patch without a key keeps it; one with a new key replaces it.
        var rename = GooglePlayConfigPatch()
        rename.production = false
        #expect(try await harness.engine.updateGooglePlayConfig(tenantID: harness.tenantID, rename).keyFingerprint == saved.keyFingerprint)
        let second = try GoogleServiceAccountKeyFile.generate(clientEmail: "rotated@gatehouse-test.iam.gserviceaccount.com", distinctFrom: [file])
        var rotate = GooglePlayConfigPatch()
        rotate.serviceAccountKey = second.json
        let rotated = try await harness.engine.updateGooglePlayConfig(tenantID: harness.tenantID, rotate)
        #expect(rotated.clientEmail == second.clientEmail && rotated.keyFingerprint != saved.keyFingerprint && !rotated.production)
    }

    @Test(arguments: TestDatabaseKind.available)
    func whatIsNotAServiceAccountKeyIsRefusedAndNothingChanges(_ kind: TestDatabaseKind) async throws {
        let harness = try await CommerceHarness(kind)
        defer { harness.close() }
        let file = try GoogleServiceAccountKeyFile.generate()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(file.json.utf8)) as? [String: String])
        func variant(_ change: (inout [String: String]) -> Void) throws -> String {
            var copy = object
            change(&copy)
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        let small = try Command.run("/usr/bin/env", ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"])
        try #require(small.status == 0 && !small.output.isEmpty)
        let refused = [
            "not json", "[]", "{", String(repeating: "[", count: 100_000),
            try variant { $0["type"] = "authorized_user" },
            try variant { $0["client_email"] = nil },
            try variant { $0["client_email"] = "no-at-sign" },
            try variant { $0["private_key"] = nil },
            try variant { $0["private_key"] = try! P256PrivateKey.generate().pemRepresentation },
            try variant { $0["private_key"] = String(decoding: small.output, as: UTF8.self) },
            try variant { $0["private_key_id"] = "has space" },
            file.json + "\u{0}",
        ]
        for text in refused {
            var patch = GooglePlayConfigPatch()
            patch.serviceAccountKey = text
            await #expect(throws: CommerceError(.validationFailed, .googlePlay(.serviceAccountKey))) {
                try await harness.engine.updateGooglePlayConfig(tenantID: harness.tenantID, patch)
            }
        }
        for name in ["example", "com..example", "1com.example", "com.exa-mple", "com.example.", String(repeating: "a.", count: 128) + "b"] {
            var patch = GooglePlayConfigPatch()
            patch.packageName = name
            await #expect(throws: CommerceError(.validationFailed, .googlePlay(.packageName))) {
                try await harness.engine.updateGooglePlayConfig(tenantID: harness.tenantID, patch)
            }
        }
        var email = GooglePlayConfigPatch()
        email.pushServiceAccountEmail = .some("two@@signs")
        await #expect(throws: CommerceError.invalid("pushServiceAccountEmail", .emailAddress)) {
            try await harness.engine.updateGooglePlayConfig(tenantID: harness.tenantID, email)
        }
        #expect(try await harness.engine.googlePlayConfig(tenantID: harness.tenantID) == nil)

        // A server without a sealing key keeps no key (and says why), but keeps the rest.
        let unsealed = CommerceEngine(environment: harness.environment)
        var keyed = GooglePlayConfigPatch()
        (keyed.packageName, keyed.serviceAccountKey) = ("com.example.gatehouse", file.json)
        await #expect(throws: CommerceError(.secretKeyMissing, .noSealingKey)) {
            try await unsealed.updateGooglePlayConfig(tenantID: harness.tenantID, keyed)
        }
        keyed.serviceAccountKey = nil
        #expect(try await unsealed.updateGooglePlayConfig(tenantID: harness.tenantID, keyed).hasServiceAccountKey == false)
    }

    /// Google Play's credit packages are a list of their own: saving them keeps the App Store's,
    /// and an App Store transaction never buys what only Google Play sells.
    @Test(arguments: TestDatabaseKind.available)
    func googlePackagesStandApartFromTheAppStores(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let googleOnly = "com.example.gatehouse.credits900"
        let saved = try await h.engine.setCreditPackages(
            tenantID: h.tenantID, provider: "google", [CreditPackage(provider: "google", platformProductId: googleOnly, credits: 900, displayName: nil)])
        #expect(saved.map(\.platformProductId) == [googleOnly] && saved.allSatisfy { $0.provider == "google" })
        #expect(try await h.engine.creditPackages(tenantID: h.tenantID).map(\.platformProductId) == [CommerceHarness.creditsProduct])
        await #expect(throws: CommerceError.invalid("provider", .oneOf(["apple", "google"]))) {
            try await h.engine.creditPackages(tenantID: h.tenantID, provider: "amazon")
        }
        let payload: [String: Any] = [
            "transactionId": "3000000000000901", "originalTransactionId": "3000000000000901", "productId": googleOnly,
            "bundleId": bundleId, "environment": "Sandbox", "type": "Consumable", "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
        ]
        await #expect(throws: PurchaseError(.productUnknown, .productNotSold)) {
            try await h.report(try h.chain.sign(payload: payload), id: "3000000000000901", product: googleOnly, account: "alice")
        }
    }
}
