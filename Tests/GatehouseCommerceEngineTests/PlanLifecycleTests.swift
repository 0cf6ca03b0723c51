import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// Plans bought through verify-purchase and then changed by App Store Server Notifications,
/// with entitlement state read from the engine's (manual) clock.
@Suite struct PlanLifecycleTests {
    @Test(arguments: TestDatabaseKind.available)
    func renewalGraceBillingRetryExpiryAndRefund(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let first = try h.subscription("3000000000000001")
        guard case .serviceEntitlement(let state, let transferred) = try await h.report(first.jws, id: "3000000000000001", account: "alice") else {
            Issue.record("not a plan")
            return
        }
        #expect(state.status == .active && !transferred)
        #expect(abs(state.currentPeriodEnd!.timeIntervalSince(h.clock.now) - 30 * 86_400) < 1)
        try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "wf-1")

        // Billing fails with a grace period of 6 days past expiry: access continues into grace.
        let graceEnd = h.ms(days: 36)
        let failed = try h.notification("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transaction: first.jws,
                                        renewal: ["gracePeriodExpiresDate": graceEnd, "autoRenewStatus": 1, "isInBillingRetryPeriod": true],
                                        signedAt: nowMilliseconds() + 1000)
        #expect(try await h.engine.receiveNotification(signedPayload: failed) == .applied)
        #expect(try await h.engine.receiveNotification(signedPayload: failed) == .duplicate)
        h.clock.advance(by: 31 * 86_400)
        let inGrace = try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "alice")
        #expect(inGrace.entitlement.state.status == .inGrace && inGrace.canExecuteGatedWorkflow)
        #expect(Int64(inGrace.entitlement.state.currentPeriodEnd!.timeIntervalSince1970 * 1000) == graceEnd)

        // Grace ends without a renewal: no access, Apple keeps retrying.
        let graceOver = try h.notification("GRACE_PERIOD_EXPIRED", transaction: first.jws, signedAt: nowMilliseconds() + 2000)
        #expect(try await h.engine.receiveNotification(signedPayload: graceOver) == .applied)
        #expect(try await h.status("alice") == .billingRetry)
        await #expect(throws: PurchaseError(.entitlementInactive, .entitlementInactive)) {
            try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "wf-1")
        }

        // Billing recovers: a renewal transaction extends the period and clears the issue.
        let renewal = try h.subscription("3000000000000002", purchasedDaysAgo: 0, expiresInDays: 30)
        let renewed = try h.notification("DID_RENEW", subtype: "BILLING_RECOVERY", transaction: renewal.jws, signedAt: nowMilliseconds() + 3000)
        #expect(try await h.engine.receiveNotification(signedPayload: renewed) == .applied)
        #expect(try await h.status("alice") == .active)

        // An older notification arriving late does not undo the renewal.
        let stale = try h.notification("EXPIRED", subtype: "BILLING_RETRY", transaction: first.jws, signedAt: nowMilliseconds() - 60_000)
        #expect(try await h.engine.receiveNotification(signedPayload: stale) == .applied)
        #expect(try await h.status("alice") == .active)

        // A refund of the earlier period leaves the renewed one in force.
        let oldRefund = try h.subscription("3000000000000001", purchasedDaysAgo: 31, extra: ["revocationDate": h.ms(), "revocationReason": 0])
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("REFUND", transaction: oldRefund.jws)) == .applied)
        #expect(try await h.status("alice") == .active)

        // Turning auto-renew off is not a revocation.
        let off = try h.notification("DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", transaction: renewal.jws,
                                     renewal: ["autoRenewStatus": 0], signedAt: nowMilliseconds() + 4000)
        #expect(try await h.engine.receiveNotification(signedPayload: off) == .applied)
        let summary = try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "alice")
        #expect(summary.entitlement.state.status == .active && summary.entitlement.subscription?.autoRenew == false)

        // A refund ends access at once and for good.
        let refundedTransaction = try h.subscription("3000000000000002", expiresInDays: 30, extra: ["revocationDate": h.ms(), "revocationReason": 0])
        let refund = try h.notification("REFUND", transaction: refundedTransaction.jws, signedAt: nowMilliseconds() + 5000)
        #expect(try await h.engine.receiveNotification(signedPayload: refund) == .applied)
        #expect(try await h.status("alice") == .revoked)
        #expect(try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "alice").canExecuteGatedWorkflow == false)

        // The copy signed before the refund, reported again, does not bring access back.
        _ = try await h.report(renewal.jws, id: "3000000000000002", account: "alice")
        #expect(try await h.status("alice") == .revoked)
        // Apple reversing the refund does.
        let reversed = try h.notification("REFUND_REVERSED", transaction: renewal.jws, signedAt: nowMilliseconds() + 6000)
        #expect(try await h.engine.receiveNotification(signedPayload: reversed) == .applied)
        #expect(try await h.status("alice") == .active)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aNotificationGoesToTheTenantHoldingItsSubscription(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        // A second tenant (say, staging) with the same bundle id and catalogue, created later.
        let staging = try await TenantDirectory(environment: h.engine.environment).createTenant(name: "Acme staging").id
        var patch = AppleConfigPatch()
        patch.bundleId = bundleId
        patch.production = false
        patch.extraTrustedRootPEM = .some(h.chain.rootPEM)
        _ = try await h.engine.updateAppleConfig(tenantID: staging, patch)
        let stagingPlan = try await h.engine.createPlan(
            tenantID: staging, displayName: "Monthly", interval: .monthly, appleProductID: CommerceHarness.monthlyProduct, gatedWorkflowID: "wf-1")
        let bought = try h.subscription("3000000000000401", original: "3000000000000401")
        _ = try await h.engine.verifyPurchase(
            tenantID: staging, accountID: "sam",
            PurchaseReport(platform: "apple", platformProductId: CommerceHarness.monthlyProduct, transactionId: "3000000000000401",
                           signedTransaction: bought.jws, transferToCurrentAccount: false))
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("EXPIRED", transaction: bought.jws)) == .applied)
        let summary = try await h.engine.entitlementSummary(tenantID: staging, accountID: "sam")
        #expect(summary.entitlement.state.status == .expired && summary.entitlement.planId == stagingPlan.productId)
        let elsewhere = try await h.store.database.read { db in
            try db.query("SELECT id FROM commerce_subscriptions WHERE tenant_id = ?", [.text(h.tenantID)]).count
        }
        #expect(elsewhere == 0)
    }

    @Test(arguments: TestDatabaseKind.available)
    func expiryFamilyRevokeAndNonRenewingYear(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let bought = try h.subscription("3000000000000011", original: "3000000000000011")
        _ = try await h.report(bought.jws, id: "3000000000000011", account: "alice")
        let expired = try h.notification("EXPIRED", subtype: "VOLUNTARY", transaction: bought.jws)
        #expect(try await h.engine.receiveNotification(signedPayload: expired) == .applied)
        #expect(try await h.status("alice") == .expired)

        // A family member's own transaction links to their account; REVOKE ends it.
        let shared = try h.subscription("3000000000000021", original: "3000000000000021", extra: ["inAppOwnershipType": "FAMILY_SHARED"])
        _ = try await h.report(shared.jws, id: "3000000000000021", account: "bob")
        #expect(try await h.status("bob") == .active)
        let revokedShare = try h.subscription("3000000000000021", original: "3000000000000021",
                                              extra: ["inAppOwnershipType": "FAMILY_SHARED", "revocationDate": h.ms(), "revocationReason": 0])
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("REVOKE", transaction: revokedShare.jws)) == .applied)
        #expect(try await h.status("bob") == .revoked)

        // one_time_year is a non-renewing subscription lasting a year from purchase; bought in the
        // sandbox it lasts an hour, as Apple's sandbox compresses a year.
        let trialYear = try h.subscription("3000000000000032", original: "3000000000000032", product: CommerceHarness.yearlyProduct)
        guard case .serviceEntitlement(let sandboxState, _) = try await h.report(
            trialYear.jws, id: "3000000000000032", product: CommerceHarness.yearlyProduct, account: "dave")
        else { Issue.record("not a plan"); return }
        #expect(sandboxState.currentPeriodEnd == h.clock.now.addingTimeInterval(3600))
        let year = try h.subscription("3000000000000031", original: "3000000000000031", product: CommerceHarness.yearlyProduct,
                                      extra: ["environment": "Production"])
        guard case .serviceEntitlement(let state, _) = try await h.report(year.jws, id: "3000000000000031", product: CommerceHarness.yearlyProduct, account: "carol")
        else { Issue.record("not a plan"); return }
        #expect(state.status == .active)
        let days = state.currentPeriodEnd!.timeIntervalSince(h.clock.now) / 86_400
        #expect(days >= 365 && days <= 366)
        h.clock.advance(by: 367 * 86_400)
        #expect(try await h.status("carol") == .expired)

        // A plan product sold as the wrong type is refused.
        let wrongType = try h.subscription("3000000000000041", original: "3000000000000041", extra: ["type": "Non-Renewing Subscription"])
        await #expect(throws: PurchaseError.self) { _ = try await h.report(wrongType.jws, id: "3000000000000041", account: "alice") }

        // TEST and CONSUMPTION_REQUEST are recorded only; a notification for another app is refused.
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("TEST", transaction: nil)) == .recorded)
        let consumption = try h.notification("CONSUMPTION_REQUEST", transaction: bought.jws)
        #expect(try await h.engine.receiveNotification(signedPayload: consumption) == .recorded)
        let stranger = try await Chains.get().attacker
        var forged = try h.notification("REFUND", transaction: bought.jws)
        forged = try stranger.resign(forged)
        await #expect(throws: NotificationRejected.self) { _ = try await h.engine.receiveNotification(signedPayload: forged) }
        #expect(try await h.status("alice") == .expired)
    }

    @Test(arguments: TestDatabaseKind.available)
    func movingAPlanBetweenAccounts(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let plan = try h.subscription("3000000000000101", original: "3000000000000101")
        _ = try await h.report(plan.jws, id: "3000000000000101", account: "alice")
        // Another person's account: 409 with canTransfer, and the move only when asked.
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: true)) {
            _ = try await h.report(plan.jws, id: "3000000000000101", account: "bob")
        }
        #expect(try await h.status("bob") == .none)
        let moved = try await h.report(plan.jws, id: "3000000000000101", account: "bob", transfer: true)
        #expect(moved == .serviceEntitlement(EntitlementState(status: .active, currentPeriodEnd: try #require(Self.end(moved))), transferred: true))
        #expect(try await h.status("bob") == .active)
        #expect(try await h.status("alice") == .none)
        // Reporting again on the new holder changes nothing.
        guard case .serviceEntitlement(_, false) = try await h.report(plan.jws, id: "3000000000000101", account: "bob") else {
            Issue.record("expected an unchanged link"); return
        }
        // Deleted holder or the same person: moves without asking.
        h.accounts.set(.deleted, holder: "bob", reporter: "carol")
        guard case .serviceEntitlement(_, true) = try await h.report(plan.jws, id: "3000000000000101", account: "carol") else {
            Issue.record("expected an automatic move"); return
        }
        h.accounts.set(.sameOwner, holder: "carol", reporter: "dave")
        guard case .serviceEntitlement(_, true) = try await h.report(plan.jws, id: "3000000000000101", account: "dave") else {
            Issue.record("expected an automatic move"); return
        }
        // An ended plan cannot be moved.
        h.clock.advance(by: 31 * 86_400)
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: false)) {
            _ = try await h.report(plan.jws, id: "3000000000000101", account: "erin", transfer: true)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentFirstReportsAndDeliveriesApplyOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let plan = try h.subscription("3000000000000301", original: "3000000000000301")
        let outcomes = try await withThrowingTaskGroup(of: PurchaseOutcome.self) { group in
            for _ in 0..<8 { group.addTask { try await h.report(plan.jws, id: "3000000000000301", account: "alice") } }
            return try await group.reduce(into: [PurchaseOutcome]()) { $0.append($1) }
        }
        #expect(outcomes.count == 8 && outcomes.allSatisfy { if case .serviceEntitlement(let state, false) = $0 { state.status == .active } else { false } })
        let rows = try await h.store.database.read { db in try db.query("SELECT id FROM commerce_subscriptions", []).count }
        #expect(rows == 1)
        let failed = try h.notification("DID_FAIL_TO_RENEW", transaction: plan.jws, renewal: ["autoRenewStatus": 1])
        let deliveries = try await withThrowingTaskGroup(of: NotificationOutcome.self) { group in
            for _ in 0..<6 { group.addTask { try await h.engine.receiveNotification(signedPayload: failed) } }
            return try await group.reduce(into: [NotificationOutcome]()) { $0.append($1) }
        }
        #expect(deliveries.filter { $0 == .applied }.count == 1 && deliveries.filter { $0 == .duplicate }.count == 5)
    }

    @Test(arguments: TestDatabaseKind.available)
    func serverTrialStartsOnceAndEnds(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        var summary = try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "alice")
        #expect(summary.trial.status == .notStarted && !summary.trialOfferAvailable && !summary.canExecuteGatedWorkflow)
        #expect(summary.plans.map(\.productId) == [h.monthly.productId, h.yearly.productId])
        await #expect(throws: PurchaseError.self) { _ = try await h.engine.startTrial(tenantID: h.tenantID, accountID: "alice") }
        _ = try await h.engine.updateTrialConfig(tenantID: h.tenantID, iosEnabled: true, iosDurationDays: 3)
        summary = try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "alice")
        #expect(summary.trialOfferAvailable && summary.trialDurationDays == 3)
        summary = try await h.engine.startTrial(tenantID: h.tenantID, accountID: "alice")
        #expect(summary.trial.status == .active && summary.canExecuteGatedWorkflow && !summary.trialOfferAvailable)
        #expect(summary.trial.endsAt == h.clock.now.addingTimeInterval(3 * 86_400))
        h.clock.advance(by: 86_400)
        #expect(try await h.engine.startTrial(tenantID: h.tenantID, accountID: "alice").trial.endsAt == summary.trial.endsAt)
        try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "wf-1")
        try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "not-gated")
        h.clock.advance(by: 2 * 86_400)
        summary = try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "alice")
        #expect(summary.trial.status == .ended && !summary.trialOfferAvailable && !summary.canExecuteGatedWorkflow)
        await #expect(throws: PurchaseError.self) {
            try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "wf-1")
        }
        try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "not-gated")
    }

    @Test(arguments: TestDatabaseKind.available)
    func refundedCreditsAreTakenBackOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        var payload: [String: Any] = [
            "transactionId": "3000000000000201", "originalTransactionId": "3000000000000201", "productId": CommerceHarness.creditsProduct,
            "bundleId": bundleId, "environment": "Sandbox", "type": "Consumable", "quantity": 2, "signedDate": nowMilliseconds(),
        ]
        let bought = try h.chain.sign(payload: payload)
        #expect(try await h.report(bought, id: "3000000000000201", product: CommerceHarness.creditsProduct, account: "alice")
            == .creditPackage(creditsGranted: 200))
        payload["revocationDate"] = h.ms()
        let refunded = try h.chain.sign(payload: payload)
        let refund = try h.notification("REFUND", transaction: refunded)
        #expect(try await h.engine.receiveNotification(signedPayload: refund) == .applied)
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("REFUND", transaction: refunded)) == .recorded)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 0)
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("REFUND_REVERSED", transaction: bought)) == .applied)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 200)
    }

    static func end(_ outcome: PurchaseOutcome) -> Date? {
        if case .serviceEntitlement(let state, _) = outcome { return state.currentPeriodEnd }
        return nil
    }
}

