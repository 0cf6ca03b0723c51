import Foundation
import GatehouseAuth
import GatehouseCore
import GatehousePurchases
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Datacove's verify-purchase for Google Play, end to end: the live server reads the purchase
/// from the Play Developer API stand-in (its service account's grant checked by google-auth),
/// driven through the SDK from a session the Android app's key signed in.
@Suite struct GooglePlayVerifyTests {
    static let package = "com.example.app"

    struct Fixture {
        let store: StoreFixture
        let google: GoogleStandIn
        let keyFile: GoogleServiceAccountKeyFile

        func stop() async {
            await store.stop()
            await google.shutdown()
        }

        /// A signed-in SDK client of the app of `platform`.
        func auth(_ phone: String, platform: String = "ANDROID") async throws -> AuthClient {
            let client = AuthClient(
                baseURL: store.live.baseURL.appendingPathComponent("api"), apiKey: store.live.credentials.apiKeys![platform]!,
                tokenStore: InMemoryTokenStore(), appVersion: "3.0.0", deviceName: platform == "ANDROID" ? "Pixel" : "iPhone",
                now: { [clock = store.clock] in clock.now })
            let digits = phone.filter(\.isNumber)
            let before = try await store.client.outboxMessages(store.live, digits).count
            try await client.requestMobileOtp(phone: phone)
            _ = try await client.verifyMobileOtp(phone: phone, otp: try await store.client.outboxCode(store.live, digits, after: before))
            return client
        }
    }

    static func start(_ kind: TestDatabaseKind) async throws -> Fixture {
        let google = try await GoogleStandIn.start()
        let store = try await StoreFixture.start(kind) { settings in
            settings.googlePlayApiURL = google.baseURL
            settings.googleTokenURL = google.tokenURL
            settings.googleCertsURL = google.certificatesURL
        }
        let file = try GoogleServiceAccountKeyFile.generate()
        try await google.register(file)
        let admin = store.live.credentials.adminToken
        let base = "tenants/v1/\(store.live.credentials.tenantId)"
        let config = try await store.client.call(
            "PATCH", base + "/google-play-config", ["packageName": package, "serviceAccountKey": file.json, "production": false], token: admin)
        #expect(config.status == 200, "\(config.json)")
        let plan = try await store.client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Pro", "interval": "monthly", "platformProductIds": ["apple": "com.example.app.pro", "google": "pro"],
             "gatedWorkflowId": "wf-pro"], token: admin)
        #expect(plan.status == 201, "\(plan.json)")
        let pricing = try await store.client.call(
            "PUT", base + "/pricing-config", ["provider": "google", "iapCreditPackages": [["platformProductId": "credits_500", "credits": 500]]],
            token: admin)
        #expect(pricing.status == 200, "\(pricing.json)")
        let expiry = ISO8601DateFormatter().string(from: store.clock.now.addingTimeInterval(30 * 86_400))
        try await google.add(
            package: package,
            subscriptions: ["sub-token-1": [
                "kind": "androidpublisher#subscriptionPurchaseV2", "startTime": ISO8601DateFormatter().string(from: store.clock.now),
                "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE", "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING",
                "lineItems": [["productId": "pro", "expiryTime": expiry, "offerDetails": ["basePlanId": "monthly"],
                               "autoRenewingPlan": ["autoRenewEnabled": true]]],
            ]],
            products: [("credits_500", "product-token-1", [
                "kind": "androidpublisher#productPurchase", "purchaseTimeMillis": "1764928800000", "purchaseState": 0, "consumptionState": 0,
                "orderId": "GPA.1234-5678-9012-34567", "acknowledgementState": 0, "quantity": 1,
            ])])
        return Fixture(store: store, google: google, keyFile: file)
    }

    @Test(arguments: TestDatabaseKind.available)
    func anAndroidAppsPlayPurchasesAreGrantedThroughTheSDK(_ kind: TestDatabaseKind) async throws {
        let f = try await Self.start(kind)
        let alice = try await f.auth("+14165550191")
        let backend = DatacovePurchaseBackend(auth: alice)

        guard case .accepted(let plan) = await backend.verifyGooglePlayPurchase(productId: "pro", purchaseToken: "sub-token-1") else {
            Issue.record("the plan was not accepted")
            return await f.stop()
        }
        #expect(plan.kind == .serviceEntitlement && plan.entitlementStatus == "active" && !plan.transferred)
        guard case .accepted(let credits) = await backend.verifyGooglePlayPurchase(productId: "credits_500", purchaseToken: "product-token-1") else {
            Issue.record("the credits were not accepted")
            return await f.stop()
        }
        #expect(credits.kind == .creditPackage && credits.creditsGranted == 500)
        // Reported again: granted once.
        _ = await backend.verifyGooglePlayPurchase(productId: "credits_500", purchaseToken: "product-token-1")
        let token = try await alice.session.validAccessToken(rejected: nil)
        let profile = try await f.store.client.call("GET", "users/v1/profile", token: token)
        #expect((profile.json["wallet"] as? [String: Int])?["WALLET"] == 500)

        // The entitlement, as the literal JSON shows it: the plan is Google Play's.
        let entitlement = try await f.store.client.call("GET", "purchases/v1/entitlement", token: token)
        let held = try #require(entitlement.json["entitlement"] as? [String: Any])
        #expect(held["status"] as? String == "active" && held["platform"] as? String == "google" && held["productId"] as? String != nil)
        #expect(entitlement.json["canExecuteGatedWorkflow"] as? Bool == true)

        // Acknowledged and consumed, once each.
        let settled = try await f.google.log().compactMap(\.verb).sorted()
        #expect(settled == ["acknowledge", "consume"])

        // A grant Google cannot be told of is granted all the same, and shows on /metrics a day later.
        try await f.google.add(package: Self.package, products: [("credits_500", "product-token-2", [
            "kind": "androidpublisher#productPurchase", "purchaseState": 0, "consumptionState": 0, "orderId": "GPA.2", "acknowledgementState": 0,
        ])])
        try await f.google.failSettlements(with: 503)
        guard case .accepted = await backend.verifyGooglePlayPurchase(productId: "credits_500", purchaseToken: "product-token-2") else {
            Issue.record("the credits were not accepted")
            return await f.stop()
        }
        f.store.clock.advance(by: 86_400 + 60)
        await f.store.live.app.sweepGooglePlay()
        let metrics = String(decoding: try await URLSession.shared.data(from: f.store.live.baseURL.appendingPathComponent("metrics")).0, as: UTF8.self)
        #expect(metrics.contains("# TYPE gatehouse_google_play_unacknowledged gauge"))
        #expect(metrics.contains("gatehouse_google_play_unacknowledged{tenant=\"\(f.store.live.credentials.tenantId)\"} 1"), "\(metrics)")
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentReportsOverHTTPGrantOnce(_ kind: TestDatabaseKind) async throws {
        let f = try await Self.start(kind)
        let alice = try await f.auth("+14165550198")
        let token = try await alice.session.validAccessToken(rejected: nil)
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<10 {
                group.addTask {
                    [
                        try await f.store.client.call(
                            "POST", "purchases/v1/verify-purchase",
                            ["platform": "google", "platformProductId": "credits_500", "purchaseToken": "product-token-1"], token: token).status,
                        try await f.store.client.call(
                            "POST", "purchases/v1/verify-purchase", ["platform": "google", "platformProductId": "pro", "purchaseToken": "sub-token-1"],
                            token: token).status,
                    ]
                }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let profile = try await f.store.client.call("GET", "users/v1/profile", token: token)
        #expect((profile.json["wallet"] as? [String: Int])?["WALLET"] == 500)
        #expect(try await f.google.log().compactMap(\.verb).sorted() == ["acknowledge", "consume"])
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func refusalsInTheDatacoveEnvelope(_ kind: TestDatabaseKind) async throws {
        let f = try await Self.start(kind)
        let ios = try await f.auth("+14165550192", platform: "IOS")
        let android = try await f.auth("+14165550193")
        let iosToken = try await ios.session.validAccessToken(rejected: nil)
        let androidToken = try await android.session.validAccessToken(rejected: nil)
        func report(_ body: [String: Any], _ token: String) async throws -> (status: Int, code: String?, message: String?) {
            let answer = try await f.store.client.call("POST", "purchases/v1/verify-purchase", body, token: token)
            let error = answer.json["error"] as? [String: Any]
            return (answer.status, error?["code"] as? String, error?["message"] as? String)
        }
        let fromIOS = try await report(["platform": "google", "platformProductId": "pro", "purchaseToken": "sub-token-1"], iosToken)
        #expect(fromIOS.status == 400 && fromIOS.code == "PURCHASE_INVALID" && fromIOS.message == "Google Play purchases are reported from an Android app.")
        let noToken = try await report(["platform": "google", "platformProductId": "pro"], androidToken)
        #expect(noToken.status == 400 && noToken.code == "VALIDATION_FAILED" && noToken.message == "purchaseToken is required", "\(noToken)")
        let noTransaction = try await report(["platform": "apple", "platformProductId": "pro"], androidToken)
        #expect(noTransaction.status == 400 && noTransaction.message == "transactionId is required", "\(noTransaction)")
        let unknown = try await report(["platform": "google", "platformProductId": "pro", "purchaseToken": "no-such-token"], androidToken)
        #expect(unknown.status == 400 && unknown.code == "PURCHASE_INVALID" && unknown.message == "Google Play does not know this purchase token.")
        let malformed = try await report(["platform": "google", "platformProductId": "pro", "purchaseToken": "../../x"], androidToken)
        #expect(malformed.status == 400 && malformed.message == "purchaseToken must be the Google Play purchase token")
        let unsold = try await report(["platform": "google", "platformProductId": "basic", "purchaseToken": "sub-token-1"], androidToken)
        #expect(unsold.status == 404 || unsold.status == 400, "\(unsold)")
        let otherPlatform = try await report(["platform": "amazon", "platformProductId": "pro", "transactionId": "1"], androidToken)
        #expect(otherPlatform.status == 400 && otherPlatform.message == "platform must be apple or google", "\(otherPlatform)")
        try await f.google.failAPI(with: 503)
        let down = try await report(["platform": "google", "platformProductId": "pro", "purchaseToken": "sub-token-1"], androidToken)
        #expect(down.status == 503 && down.message == "Google Play could not be reached. Try again.", "\(down)")
        // The service account's key never reaches a log.
        let key = f.keyFile.privateKeyPEM.split(separator: "\n").dropFirst().first.map(String.init) ?? "unreachable"
        #expect(!f.store.live.logs.lines.contains { $0.contains(key) || $0.contains("PRIVATE KEY") })
        await f.stop()
    }
}

/// `trial-config.android`: Android apps (sessions an ANDROID key signed in) get a trial of their own.
@Suite struct AndroidTrialTests {
    @Test(arguments: TestDatabaseKind.available)
    func theTrialIsChosenByTheAppsPlatform(_ kind: TestDatabaseKind) async throws {
        let f = try await GooglePlayVerifyTests.start(kind)
        let base = "tenants/v1/\(f.store.live.credentials.tenantId)/trial-config"
        let admin = f.store.live.credentials.adminToken
        let patched = try await f.store.client.call("PATCH", base, ["android": ["enabled": true, "durationDays": 3]], token: admin)
        #expect(patched.status == 200)
        // The literal answer: both platforms, iOS's untouched.
        let answer = try JSONSerialization.data(withJSONObject: patched.json, options: .sortedKeys)
        #expect(String(decoding: answer, as: UTF8.self) == #"{"android":{"durationDays":3,"enabled":true},"ios":{"durationDays":7,"enabled":false}}"#)
        _ = try await f.store.client.call("PATCH", base, ["ios": ["enabled": true, "durationDays": 14]], token: admin)
        let refused = try await f.store.client.call("PATCH", base, ["android": ["enabled": true, "durationDays": 0]], token: admin)
        #expect(refused.status == 400)
        let wrongShape = try await f.store.client.call("PATCH", base, ["android": true], token: admin)
        #expect(wrongShape.status == 400 && ((wrongShape.json["error"] as? [String: Any])?["message"] as? String)?.contains("android") == true, "\(wrongShape.json)")

        func offer(_ platform: String, _ phone: String) async throws -> (Any?, Any?) {
            let session = try await f.auth(phone, platform: platform)
            let token = try await session.session.validAccessToken(rejected: nil)
            let summary = try await f.store.client.call("GET", "purchases/v1/entitlement", token: token)
            let trialOffer = summary.json["trialOffer"] as? [String: Any]
            return (trialOffer?["available"], trialOffer?["durationDays"])
        }
        let android = try await offer("ANDROID", "+14165550195")
        let ios = try await offer("IOS", "+14165550196")
        #expect(android.0 as? Bool == true && android.1 as? Int == 3)
        #expect(ios.0 as? Bool == true && ios.1 as? Int == 14)
        // Started from the Android app: three days.
        let session = try await f.auth("+14165550197")
        let started = try await f.store.client.call("POST", "purchases/v1/trial/start", token: try await session.session.validAccessToken(rejected: nil))
        let trial = try #require(started.json["trial"] as? [String: Any])
        let starts = try #require((trial["startedAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) ?? Self.fractional($0) })
        let ends = try #require((trial["endsAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) ?? Self.fractional($0) })
        #expect(abs(ends.timeIntervalSince(starts) - 3 * 86_400) < 1, "\(trial)")
        await f.stop()
    }

    static func fractional(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
