import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import Testing
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The webhook's status and `outcome`.
func outcome(_ reply: (status: Int, json: [String: Any])) -> String {
    "\(reply.status) \(reply.json["outcome"] as? String ?? "-")"
}

/// Plans, trials and notifications over the live server (seed 000 §07), on both databases.
@Suite struct PlanPurchaseTests {
    @Test(arguments: TestDatabaseKind.available)
    func trialPlanAndNotificationsThroughTheirLifecycle(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind, trialDays: 7)
        var alice = try await store.signIn("+14165550171")

        // The paywall state before anything: the seed's shape, field by field.
        var state = try await store.entitlement(alice)
        #expect(Set(state.keys) == ["trial", "trialOffer", "entitlement", "plans", "canExecuteGatedWorkflow", "serverTime"])
        #expect(state["trial"] as? [String: String] == ["status": "not_started"])
        #expect(state["trialOffer"] as? NSDictionary == ["available": true, "durationDays": 7] as NSDictionary)
        #expect(state["entitlement"] as? [String: String] == ["status": "none"])
        #expect(state["canExecuteGatedWorkflow"] as? Bool == false)
        #expect(state["serverTime"] as? String == WireDate.string(store.clock.now))
        let plans = try #require(state["plans"] as? [[String: Any]])
        #expect(plans.count == 1 && Set(plans[0].keys) == ["productId", "platformProductId", "displayName", "interval", "gatedWorkflowId"])
        #expect(plans[0]["productId"] as? String == store.planID && plans[0]["platformProductId"] as? String == StoreFixture.monthly)
        #expect(plans[0]["interval"] as? String == "monthly" && plans[0]["gatedWorkflowId"] as? String == "wf-sec-001")

        // The server trial: started once, then over after seven days.
        let started = try await store.client.call("POST", "purchases/v1/trial/start", token: alice)
        #expect(started.status == 200)
        let trial = try #require(started.json["trial"] as? [String: Any])
        #expect(trial["status"] as? String == "active" && trial["endsAt"] as? String == WireDate.string(store.clock.now.addingTimeInterval(7 * 86_400)))
        #expect(started.json["canExecuteGatedWorkflow"] as? Bool == true)
        #expect(started.json["trialOffer"] as? [String: Bool] == ["available": false])
        store.clock.advance(by: 7 * 86_400)
        alice = try await store.signIn("+14165550171")
        state = try await store.entitlement(alice)
        #expect((state["trial"] as? [String: Any])?["status"] as? String == "ended" && state["canExecuteGatedWorkflow"] as? Bool == false)

        // A plan bought: the seed's verify-purchase answer, exactly.
        let bought = try store.planTransaction("4000000000000001", original: "4000000000000001")
        let verified = try await store.verifyPurchase(alice, bought, id: "4000000000000001")
        #expect(verified.status == 200)
        #expect(Set(verified.json.keys) == ["kind", "entitlementStatus", "currentPeriodEnd"])
        #expect(verified.json["kind"] as? String == "service_entitlement" && verified.json["entitlementStatus"] as? String == "active")
        let periodEnd = WireDate.string(Date(timeIntervalSince1970: Double(store.ms(days: 30)) / 1000))
        #expect(verified.json["currentPeriodEnd"] as? String == periodEnd)
        state = try await store.entitlement(alice)
        #expect(state["entitlement"] as? [String: String] == ["status": "active", "productId": store.planID, "platform": "apple", "currentPeriodEnd": periodEnd])
        #expect(state["canExecuteGatedWorkflow"] as? Bool == true)

        // Billing fails with a grace period; Apple retries the same notification: applied once.
        let failed = try store.notification("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transaction: bought,
                                            renewal: ["originalTransactionId": "4000000000000001", "gracePeriodExpiresDate": store.ms(days: 36)],
                                            signedAt: Int64(Date().timeIntervalSince1970 * 1000) + 1000)
        #expect(outcome(try await store.deliver(failed)) == "200 applied")
        #expect(outcome(try await store.deliver(failed)) == "200 duplicate")
        store.clock.advance(by: 31 * 86_400)
        alice = try await store.signIn("+14165550171")
        #expect((try await store.entitlement(alice)["entitlement"] as? [String: Any])?["status"] as? String == "in_grace")
        let graceOver = try store.notification("GRACE_PERIOD_EXPIRED", transaction: bought, signedAt: Int64(Date().timeIntervalSince1970 * 1000) + 2000)
        #expect(try await store.deliver(graceOver).status == 200)
        state = try await store.entitlement(alice)
        #expect((state["entitlement"] as? [String: Any])?["status"] as? String == "billing_retry" && state["canExecuteGatedWorkflow"] as? Bool == false)

        // Renewed after all, then refunded.
        let renewal = try store.planTransaction("4000000000000002", original: "4000000000000001")
        let renewed = try store.notification("DID_RENEW", subtype: "BILLING_RECOVERY", transaction: renewal,
                                             signedAt: Int64(Date().timeIntervalSince1970 * 1000) + 3000)
        #expect(try await store.deliver(renewed).status == 200)
        #expect((try await store.entitlement(alice)["entitlement"] as? [String: Any])?["status"] as? String == "active")
        let refundedRenewal = try store.planTransaction("4000000000000002", original: "4000000000000001", extra: ["revocationDate": store.ms()])
        #expect(try await store.deliver(try store.notification("REFUND", transaction: refundedRenewal)).status == 200)
        state = try await store.entitlement(alice)
        #expect((state["entitlement"] as? [String: Any])?["status"] as? String == "revoked" && state["canExecuteGatedWorkflow"] as? Bool == false)
        await store.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func expiryAndHostileNotifications(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind)
        let alice = try #require(try await store.client.signIn(store.live, phone: "+14165550172")["accessToken"] as? String)
        let bought = try store.planTransaction("4000000000000011", original: "4000000000000011")
        #expect(try await store.verifyPurchase(alice, bought, id: "4000000000000011").status == 200)
        #expect(try await store.deliver(try store.notification("EXPIRED", subtype: "VOLUNTARY", transaction: bought)).status == 200)
        #expect((try await store.entitlement(alice)["entitlement"] as? [String: Any])?["status"] as? String == "expired")

        func code(_ reply: (status: Int, json: [String: Any])) -> String? { (reply.json["error"] as? [String: Any])?["code"] as? String }
        // Tampered, another root, another app, malformed: 400, nothing recorded; TEST is recorded.
        var tampered = try store.notification("REFUND", transaction: bought)
        tampered.removeLast(4)
        tampered += "AAAA"
        #expect(code(try await store.deliver(tampered)) == "NOTIFICATION_INVALID")
        let stranger = try await AppleTestChain.generate()
        #expect(code(try await store.deliver(try store.notification("REFUND", transaction: bought, signer: stranger))) == "NOTIFICATION_INVALID")
        #expect(code(try await store.deliver(try store.notification("REFUND", transaction: bought, bundle: "com.other.app"))) == "NOTIFICATION_INVALID")
        #expect(code(try await store.deliver("not a jws")) == "NOTIFICATION_INVALID")
        var request = URLRequest(url: URL(string: store.live.credentials.baseURL + "/webhooks/apple")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"signedPayload": 42}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        #expect(try await URLSessionTransport().send(request).1.statusCode == 400)
        // A leaf that had expired when the data was signed, under the tenant's own root: refused both ways.
        let now = Date()
        let expired = try await AppleTestChain.generate(
            .init(leafNotBefore: now.addingTimeInterval(-730 * 86_400), leafNotAfter: now.addingTimeInterval(-365 * 86_400)),
            under: store.chain, reuseIntermediate: true)
        #expect(code(try await store.deliver(try store.notification("REFUND", transaction: bought, signer: expired))) == "NOTIFICATION_INVALID")
        let staleLeaf = try expired.resign(try store.planTransaction("4000000000000012", original: "4000000000000012"))
        let refusedPurchase = try await store.verifyPurchase(alice, staleLeaf, id: "4000000000000012")
        #expect(refusedPurchase.status == 400 && (refusedPurchase.json["error"] as? [String: Any])?["code"] as? String == "PURCHASE_INVALID")
        #expect(outcome(try await store.deliver(try store.notification("TEST", transaction: nil))) == "200 recorded")
        #expect((try await store.entitlement(alice)["entitlement"] as? [String: Any])?["status"] as? String == "expired")

        // A family member's own transaction, then the family stops sharing it: REVOKE ends access.
        let shared = try store.planTransaction("4000000000000013", original: "4000000000000013", extra: ["inAppOwnershipType": "FAMILY_SHARED"])
        let member = try await store.signIn("+14165550176")
        #expect(try await store.verifyPurchase(member, shared, id: "4000000000000013").json["entitlementStatus"] as? String == "active")
        let unshared = try store.planTransaction("4000000000000013", original: "4000000000000013",
                                                 extra: ["inAppOwnershipType": "FAMILY_SHARED", "revocationDate": store.ms(), "revocationReason": 0])
        #expect(outcome(try await store.deliver(try store.notification("REVOKE", transaction: unshared))) == "200 applied")
        #expect((try await store.entitlement(member)["entitlement"] as? [String: Any])?["status"] as? String == "revoked")
        await store.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func movingAPlanToAnotherAccount(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind)
        var alice = try await store.signIn("+14165550173")
        let bob = try #require(try await store.client.signIn(store.live, phone: "+14165550174")["accessToken"] as? String)
        let plan = try store.planTransaction("4000000000000021", original: "4000000000000021")
        #expect(try await store.verifyPurchase(alice, plan, id: "4000000000000021").status == 200)

        let linked = try await store.verifyPurchase(bob, plan, id: "4000000000000021")
        let error = try #require(linked.json["error"] as? [String: Any])
        #expect(linked.status == 409 && error["code"] as? String == "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT" && error["canTransfer"] as? Bool == true)
        let moved = try await store.verifyPurchase(bob, plan, id: "4000000000000021", transfer: true)
        #expect(moved.status == 200 && moved.json["transferred"] as? Bool == true && moved.json["entitlementStatus"] as? String == "active")
        #expect((try await store.entitlement(alice)["entitlement"] as? [String: Any])?["status"] as? String == "none")
        #expect((try await store.entitlement(bob)["entitlement"] as? [String: Any])?["status"] as? String == "active")

        // Bob deletes his account: Carol gets the plan without being asked.
        #expect(try await store.client.call("DELETE", "users/v1/account", token: bob).status == 204)
        let carol = try #require(try await store.client.signIn(store.live, phone: "+14165550175")["accessToken"] as? String)
        let automatic = try await store.verifyPurchase(carol, plan, id: "4000000000000021")
        #expect(automatic.status == 200 && automatic.json["transferred"] as? Bool == true)

        // Once the plan has ended it cannot be moved.
        store.clock.advance(by: 31 * 86_400)
        alice = try await store.signIn("+14165550173")
        let ended = try await store.verifyPurchase(alice, plan, id: "4000000000000021", transfer: true)
        #expect(ended.status == 409 && (ended.json["error"] as? [String: Any])?["canTransfer"] as? Bool == false)
        let wrongType = try await store.client.call(
            "POST", "purchases/v1/verify-purchase",
            ["platform": "apple", "platformProductId": StoreFixture.monthly, "transactionId": "4000000000000021", "transferToCurrentAccount": "yes"],
            token: alice)
        #expect(wrongType.status == 400)
        await store.stop()
    }
}

