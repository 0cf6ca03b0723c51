import Foundation
import GatehousePurchases
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// SubscriptionFlow's Google Play reports over the live server (seed 003): a purchase tagged
/// with an account token links only to that token's customer, an untagged one to the caller,
/// every other refusal one identical 422; entitlements name the store of each grant.
@Suite struct SubscriptionFlowGooglePlayTests {
    static func subscription(_ store: StoreFixture, tag: String?) -> [String: Any] {
        var purchase: [String: Any] = [
            "kind": "androidpublisher#subscriptionPurchaseV2", "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE",
            "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING",
            "lineItems": [["productId": "pro", "expiryTime": ISO8601DateFormatter().string(from: store.clock.now.addingTimeInterval(20 * 86_400)),
                           "autoRenewingPlan": ["autoRenewEnabled": true]]],
        ]
        if let tag { purchase["externalAccountIdentifiers"] = ["obfuscatedExternalAccountId": tag] }
        return purchase
    }

    @Test(arguments: TestDatabaseKind.available)
    func taggedUntaggedAndForeignGooglePurchases(_ kind: TestDatabaseKind) async throws {
        let f = try await GooglePlayVerifyTests.start(kind)
        let store = f.store
        let serverKey = try await store.live.app.directory.issueKey(tenantID: store.live.credentials.tenantId, label: "backend").secret
        let backend = ["Authorization": "Bearer \(serverKey)"]
        func pair(_ customer: String) async throws -> (headers: [String: String], token: String) {
            let issued = try await SubscriptionFlowTests.call(store, "POST", "/account-tokens", ["customer_id": customer], headers: backend)
            let data = try #require(issued.json["data"] as? [String: Any])
            let token = try #require(data["account_token"] as? String)
            return (["X-SF-Account-Token": token, "X-SF-Client-Secret": try #require(data["client_secret"] as? String)], token)
        }
        let (alice, aliceToken) = try await pair("cus-alice")
        let (bob, bobToken) = try await pair("cus-bob")
        try await f.google.add(package: GooglePlayVerifyTests.package, subscriptions: [
            "sf-tagged": Self.subscription(store, tag: aliceToken), "sf-untagged": Self.subscription(store, tag: nil),
            "sf-foreign": Self.subscription(store, tag: bobToken), "sf-backend": Self.subscription(store, tag: nil),
        ])
        func report(_ token: String, product: String = "pro", as headers: [String: String]) async throws -> SubscriptionFlowTests.Reply {
            try await SubscriptionFlowTests.call(
                store, "POST", "/client/purchases", ["store": "google", "purchase_token": token, "product_id": product], headers: headers)
        }

        // Tagged with alice's token, reported through the SDK: linked; the entitlement is Google Play's.
        let sdk = SubscriptionFlowPurchaseBackend(baseURL: store.live.baseURL) { _ in
            .init(accountToken: aliceToken, clientSecret: alice["X-SF-Client-Secret"]!)
        }
        guard case .accepted(let receipt) = await sdk.reportGooglePlayPurchase(productId: "pro", purchaseToken: "sf-tagged") else {
            Issue.record("the tagged purchase was not linked")
            return await f.stop()
        }
        #expect(receipt.kind == .linked && !receipt.sandbox)
        let listed = try await SubscriptionFlowTests.call(store, "GET", "/client/entitlements", headers: alice)
        let entitlement = try #require((listed.json["data"] as? [[String: Any]])?.first)
        #expect(entitlement["key"] as? String == "wf-pro" && entitlement["source"] as? String == "GooglePlay")
        #expect((entitlement["grants"] as? [[String: Any]])?.map { $0["source"] as? String } == ["GooglePlay"])

        // Tagged with bob's token, reported by alice: 409, as on the App Store path.
        #expect(try await report("sf-foreign", as: alice).status == 409)
        // Untagged: links to the caller; afterwards it is bob's and alice's report is refused.
        #expect(try await report("sf-untagged", as: bob).status == 200)
        let refusals = [
            try await report("sf-untagged", as: alice), try await report("no-such-token", as: alice), try await report("sf-tagged", product: "basic", as: alice),
            try await report("../../etc", as: alice),
        ]
        #expect(refusals.allSatisfy { $0.status == 422 && $0.body == refusals[0].body }, "\(refusals.map(\.status))")
        #expect(try await report("", as: alice).status == 400)

        // The backend registers an untagged purchase for a customer of its own.
        let registered = try await SubscriptionFlowTests.call(
            store, "POST", "/purchases", ["customer_id": "cus-carol", "store": "google", "purchase_token": "sf-backend", "product_id": "pro"],
            headers: backend)
        #expect(registered.status == 200 && (registered.json["data"] as? [String: Any])?["linked"] as? Bool == true, "\(registered.json)")

        // Paid in both stores: one entitlement, a grant per store, the longest-lasting first.
        let apple = try store.chain.sign(payload: [
            "transactionId": "7000000000000001", "originalTransactionId": "7000000000000001", "productId": "com.example.app.pro",
            "bundleId": StoreFixture.bundleID, "environment": "Sandbox", "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "purchaseDate": store.ms(), "expiresDate": store.ms(days: 40), "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
            "appAccountToken": aliceToken,
        ])
        #expect(try await SubscriptionFlowTests.call(store, "POST", "/client/purchases", ["store": "apple", "signed_transaction": apple], headers: alice).status == 200)
        let both = try await SubscriptionFlowTests.call(store, "GET", "/client/entitlements", headers: alice)
        let combined = try #require(both.json["data"] as? [[String: Any]])
        #expect(combined.count == 1 && combined.first?["source"] as? String == "AppStore")
        #expect((combined.first?["grants"] as? [[String: Any]])?.map { $0["source"] as? String } == ["AppStore", "GooglePlay"])
        await f.stop()
    }
}
