import Foundation
import GatehouseCrypto
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The tenant administrator's store setup under /api/tenants/v1/:id (seed 000 §07).
@Suite struct TenantStoreSetupTests {
    @Test(arguments: TestDatabaseKind.available)
    func appleConfigCatalogueAndTrial(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let base = "tenants/v1/\(live.credentials.tenantId)"
        func code(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> String? {
            (reply.json["error"] as? [String: Any])?["code"] as? String
        }
        let key = try P256PrivateKey.generate().pemRepresentation
        let saved = try await client.call(
            "PATCH", base + "/apple-config",
            ["bundleId": "com.example.app", "issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "2X9R4HXF34",
             "privateKey": key, "appAppleId": 1_234_567_890], token: admin)
        #expect(saved.status == 200, "\(saved.json)")
        #expect(saved.json["bundleId"] as? String == "com.example.app" && saved.json["hasPrivateKey"] as? Bool == true)
        #expect(saved.json["production"] as? Bool == true && saved.json["privateKey"] == nil)
        let read = try await client.call("GET", base + "/apple-config", token: admin)
        #expect(!(String(data: try JSONSerialization.data(withJSONObject: read.json), encoding: .utf8) ?? "").contains("PRIVATE KEY"))
        #expect(code(try await client.call("PATCH", base + "/apple-config", ["privateKey": "not a key"], token: admin)) == "VALIDATION_FAILED")
        let root = try await AppleTestChain.generate()
        let refused = try await client.call("PATCH", base + "/apple-config", ["extraTrustedRootPEM": root.rootPEM], token: admin)
        #expect(refused.status == 400 && code(refused) == "VALIDATION_FAILED")
        let xcode = try await XcodeTestCertificate.generate()
        #expect(code(try await client.call("PATCH", base + "/apple-config", ["xcodeCertificatePEM": xcode.pem], token: admin)) == "VALIDATION_FAILED")
        let testTenant = try await client.call(
            "PATCH", base + "/apple-config", ["production": false, "extraTrustedRootPEM": root.rootPEM], token: admin)
        #expect(testTenant.status == 200 && testTenant.json["production"] as? Bool == false)
        // The Xcode StoreKit testing certificate is public: it is shown back, and can be cleared.
        let pinned = try await client.call("PATCH", base + "/apple-config", ["xcodeCertificatePEM": xcode.pem], token: admin)
        #expect(pinned.status == 200 && pinned.json["xcodeCertificatePEM"] as? String == xcode.pem, "\(pinned.json)")
        #expect(try await client.call("GET", base + "/apple-config", token: admin).json["xcodeCertificatePEM"] as? String == xcode.pem)
        #expect(code(try await client.call("PATCH", base + "/apple-config", ["xcodeCertificatePEM": "not a PEM"], token: admin)) == "VALIDATION_FAILED")
        #expect(code(try await client.call("PATCH", base + "/apple-config", ["production": true], token: admin)) == "VALIDATION_FAILED")

        let pricing = try await client.call(
            "PUT", base + "/pricing-config",
            ["provider": "apple", "iapCreditPackages": [["platformProductId": "com.example.credits500", "credits": 500, "displayName": "500 credits"]]],
            token: admin)
        #expect(pricing.status == 200 && (pricing.json["iapCreditPackages"] as? [[String: Any]])?.first?["credits"] as? Int == 500)
        // Google Play's packages are a list of their own: saving them leaves the App Store's.
        let google = try await client.call(
            "PUT", base + "/pricing-config",
            ["provider": "google", "iapCreditPackages": [["platformProductId": "credits_500", "credits": 500], ["platformProductId": "credits_100", "credits": 100]]],
            token: admin)
        #expect(NSDictionary(dictionary: google.json) == NSDictionary(dictionary: [
            "provider": "google",
            "iapCreditPackages": [["platformProductId": "credits_100", "credits": 100, "displayName": NSNull()],
                                  ["platformProductId": "credits_500", "credits": 500, "displayName": NSNull()]],
        ] as [String: Any]), "\(google.json)")
        let apple = try await client.call("GET", base + "/pricing-config", token: admin)
        #expect(apple.json["provider"] as? String == "apple" && (apple.json["iapCreditPackages"] as? [[String: Any]])?.map { $0["platformProductId"] as? String } == ["com.example.credits500"])
        let googleRead = try await client.call("GET", base + "/pricing-config?provider=google", token: admin)
        #expect((googleRead.json["iapCreditPackages"] as? [[String: Any]])?.count == 2 && googleRead.json["provider"] as? String == "google")
        #expect(code(try await client.call("GET", base + "/pricing-config?provider=amazon", token: admin)) == "VALIDATION_FAILED")
        #expect(code(try await client.call("PUT", base + "/pricing-config", ["provider": "amazon", "iapCreditPackages": []], token: admin)) == "VALIDATION_FAILED")

        let plan = try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "1 Year Protection", "interval": "annual", "platformProductIds": ["apple": "com.example.app.yearly"],
             "gatedWorkflowId": "wf-sec-001"], token: admin)
        #expect(plan.status == 201 && plan.json["interval"] as? String == "annual")
        let duplicate = try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Again", "interval": "monthly", "platformProductIds": ["apple": "com.example.app.yearly"]], token: admin)
        #expect(duplicate.status == 409)
        #expect(code(try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Weekly", "interval": "weekly", "platformProductIds": ["apple": "x"]], token: admin)) == "VALIDATION_FAILED")
        // Sold on Google Play too: a subscription, or one base plan of it, is one plan's.
        let both = try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Pro", "interval": "monthly", "platformProductIds": ["apple": "com.example.app.pro", "google": "pro:monthly-autorenew"]],
            token: admin)
        #expect(both.status == 201 && NSDictionary(dictionary: both.json["platformProductIds"] as? [String: Any] ?? [:])
            == NSDictionary(dictionary: ["apple": "com.example.app.pro", "google": "pro:monthly-autorenew"]), "\(both.json)")
        let sameBasePlan = try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Pro again", "interval": "monthly", "platformProductIds": ["apple": "com.example.app.pro2", "google": "pro:monthly-autorenew"]],
            token: admin)
        #expect(sameBasePlan.status == 409 && (sameBasePlan.json["error"] as? [String: Any])?["message"] as? String
            == "a plan already uses this Google Play subscription")
        let otherBasePlan = try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Pro yearly", "interval": "annual", "platformProductIds": ["apple": "com.example.app.pro.yearly", "google": "pro:yearly"]],
            token: admin)
        #expect(otherBasePlan.status == 201)
        for bad in ["Pro", "pro:", ":monthly", "pro:monthly:x", "pro/x", String(repeating: "p", count: 141)] {
            let refused = try await client.call(
                "POST", base + "/service-entitlement-products",
                ["displayName": "Bad", "interval": "monthly", "platformProductIds": ["apple": "com.example.app.bad", "google": bad]], token: admin)
            #expect(code(refused) == "VALIDATION_FAILED", "\(bad): \(refused.json)")
        }
        let plans = try await client.call("GET", base + "/service-entitlement-products", token: admin)
        #expect((plans.json["data"] as? [[String: Any]])?.count == 3)
        let productID = try #require(plan.json["productId"] as? String)
        #expect(try await client.call("DELETE", base + "/service-entitlement-products/\(productID)", token: admin).status == 204)

        let trial = try await client.call("PATCH", base + "/trial-config", ["ios": ["enabled": true, "durationDays": 7]], token: admin)
        let ios = try #require(trial.json["ios"] as? [String: Any])
        #expect(ios["enabled"] as? Bool == true && ios["durationDays"] as? Int == 7)
        #expect(code(try await client.call("PATCH", base + "/trial-config", ["ios": ["durationDays": 0]], token: admin)) == "VALIDATION_FAILED")

        // Without the admin token, or for a tenant that does not exist: the envelope, nothing changed.
        let anonymous = try await client.call("GET", base + "/trial-config")
        #expect(anonymous.status == 401 && anonymous.json["path"] as? String == "/api/\(base)/trial-config")
        let missing = try await client.call("GET", "tenants/v1/00000000-0000-0000-0000-000000000000/apple-config", token: admin)
        #expect(missing.status == 404 && code(missing) == "NOT_FOUND")
        await live.stop()
    }
    /// Google Play's settings beside the App Store's: the service account's key goes in, and
    /// only its email and the fingerprint of its public half come back.
    @Test(arguments: TestDatabaseKind.available)
    func googlePlayConfig(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let path = "tenants/v1/\(live.credentials.tenantId)/google-play-config"
        func code(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> String? {
            (reply.json["error"] as? [String: Any])?["code"] as? String
        }
        let unset = try await client.call("GET", path, token: admin)
        #expect(unset.status == 404 && code(unset) == "NOT_FOUND")

        let file = try GoogleServiceAccountKeyFile.generate()
        let saved = try await client.call(
            "PATCH", path,
            ["packageName": "com.example.gatehouse", "serviceAccountKey": file.json,
             "pushAudience": "https://gatehouse.example/webhooks/google-play",
             "pushServiceAccountEmail": "pubsub-push@gatehouse-test.iam.gserviceaccount.com"], token: admin)
        #expect(saved.status == 200, "\(saved.json)")
        // The fingerprint is SHA-256 of the DER public key, as openssl computes it.
        let keyPath = FileManager.default.temporaryDirectory.appendingPathComponent("sa-\(UUID().uuidString).pem").path
        try file.privateKeyPEM.write(toFile: keyPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keyPath) }
        let digest = try Command.run("/bin/sh", ["-c", "openssl pkey -in '\(keyPath)' -pubout -outform DER | sha256sum"])
        let fingerprint = String(String(decoding: digest.output, as: UTF8.self).prefix(64))
        let expected: [String: Any] = [
            "packageName": "com.example.gatehouse", "hasServiceAccountKey": true, "clientEmail": file.clientEmail, "keyFingerprint": fingerprint,
            "pushAudience": "https://gatehouse.example/webhooks/google-play",
            "pushServiceAccountEmail": "pubsub-push@gatehouse-test.iam.gserviceaccount.com", "production": true,
        ]
        #expect(NSDictionary(dictionary: saved.json) == NSDictionary(dictionary: expected), "\(saved.json)")
        let read = try await client.call("GET", path, token: admin)
        #expect(NSDictionary(dictionary: read.json) == NSDictionary(dictionary: expected))
        let text = String(decoding: try JSONSerialization.data(withJSONObject: read.json), as: UTF8.self)
        #expect(!text.contains("PRIVATE KEY") && !text.contains(file.privateKeyID))

        // null clears a push setting; a key left out is kept.
        let cleared = try await client.call("PATCH", path, ["pushAudience": NSNull(), "production": false], token: admin)
        #expect(cleared.status == 200 && cleared.json["pushAudience"] is NSNull && cleared.json["production"] as? Bool == false)
        #expect(cleared.json["keyFingerprint"] as? String == fingerprint)

        for body: [String: Any] in [
            ["serviceAccountKey": "{\"type\":\"service_account\"}"], ["serviceAccountKey": ["type": "service_account"]],
            ["packageName": "nodots"], ["pushServiceAccountEmail": "nobody"], ["pushAudience": ""], ["privateKey": "x"],
        ] {
            let refused = try await client.call("PATCH", path, body, token: admin)
            #expect(refused.status == 400 && code(refused) == "VALIDATION_FAILED", "\(body): \(refused.json)")
        }
        #expect(try await client.call("GET", path, token: admin).json["keyFingerprint"] as? String == fingerprint)
        let anonymous = try await client.call("GET", path)
        #expect(anonymous.status == 401)
        await live.stop()
    }
}
