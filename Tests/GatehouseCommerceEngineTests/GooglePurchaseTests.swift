import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// Play purchases reported through verify-purchase, read from the Play Developer API stand-in
/// (fixtures checked against Google's discovery document), on both databases.
@Suite struct GooglePurchaseTests {
    static let expected: [(String, EntitlementState.Status)] = [
        ("ACTIVE", .active), ("CANCELED", .active), ("IN_GRACE_PERIOD", .inGrace), ("ON_HOLD", .billingRetry), ("PAUSED", .expired),
        ("EXPIRED", .expired), ("PENDING", .expired), ("PENDING_PURCHASE_CANCELED", .expired),
    ]

    @Test(arguments: TestDatabaseKind.available)
    func everySubscriptionStateGivesItsEntitlementAndPaidOnesAreAcknowledgedOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: Dictionary(uniqueKeysWithValues: Self.expected.map { ("token-" + $0.0, h.subscription($0.0)) }))
        for (state, status) in Self.expected {
            guard case .serviceEntitlement(let entitlement, let transferred) = try await h.report("token-" + state, account: "acct-" + state) else {
                Issue.record("\(state): not a plan")
                continue
            }
            #expect(entitlement.status == status && !transferred, "\(state)")
            #expect(try await h.status("acct-" + state) == status, "\(state)")
            let summary = try await h.engine.entitlementSummary(tenantID: h.tenantID, accountID: "acct-" + state)
            #expect(summary.entitlement.subscription?.store == "google" && summary.entitlement.planId == h.proPlan.productId)
            #expect(summary.canExecuteGatedWorkflow == entitlement.hasAccess, "\(state)")
        }
        // Reported again: nothing more is acknowledged.
        _ = try await h.report("token-ACTIVE", account: "acct-ACTIVE")
        let paid = Self.expected.map(\.0).filter { GoogleLineState.paid.contains($0) }
        #expect(try await h.settlements().sorted() == paid.map { "acknowledge token-" + $0 }.sorted())
        #expect(try await h.google.purchase(package: GoogleHarness.package, token: "token-ACTIVE")?["acknowledgementState"] as? String
            == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED")
        // Grace ends in hold: the next read moves access, as Google says.
        try await h.add(subscriptions: ["token-IN_GRACE_PERIOD": h.subscription("ON_HOLD", expiresInDays: 0)])
        _ = try await h.report("token-IN_GRACE_PERIOD", account: "acct-IN_GRACE_PERIOD")
        #expect(try await h.status("acct-IN_GRACE_PERIOD") == .billingRetry)
        // Recovered from hold: active again.
        try await h.add(subscriptions: ["token-IN_GRACE_PERIOD": h.subscription("ACTIVE", expiresInDays: 30)])
        _ = try await h.report("token-IN_GRACE_PERIOD", account: "acct-IN_GRACE_PERIOD")
        #expect(try await h.status("acct-IN_GRACE_PERIOD") == .active)
        // A canceled subscription keeps access until its expiry, read on the engine's clock.
        h.clock.advance(by: 31 * 86_400)
        #expect(try await h.status("acct-CANCELED") == .expired)
    }

    @Test(arguments: TestDatabaseKind.available)
    func anUpgradeLeavesExactlyOneAccountEntitledInEitherOrder(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: [
            "old-1": h.subscription("ACTIVE"), "new-1": h.subscription("ACTIVE", linked: "old-1"),
            "old-2": h.subscription("ACTIVE"), "new-2": h.subscription("ACTIVE", linked: "old-2"),
            "old-3": h.subscription("ACTIVE"), "mid-3": h.subscription("ACTIVE", linked: "old-3"), "new-3": h.subscription("ACTIVE", linked: "mid-3"),
        ])
        // In order, one account: the old grant ends, the new one is the account's.
        _ = try await h.report("old-1", account: "alice")
        _ = try await h.report("new-1", account: "alice")
        #expect(try await h.status("alice") == .active)
        #expect(try await h.activeGrants() == ["new-1"])

        // In order, two accounts: the new token inherits the old one's owner; the reporter is offered the move.
        _ = try await h.report("old-2", account: "bob")
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: true)) {
            try await h.report("new-2", account: "carol")
        }
        #expect(try await h.status("bob") == .active)
        #expect(try await h.status("carol") == .none)
        guard case .serviceEntitlement(_, let transferred) = try await h.report("new-2", account: "carol", transfer: true) else {
            Issue.record("not a plan")
            return
        }
        #expect(transferred)
        #expect(try await h.status("carol") == .active)
        #expect(try await h.status("bob") == .expired)

        // A chain of three reported newest first: the older tokens are retired on arrival.
        _ = try await h.report("new-3", account: "dave")
        _ = try await h.report("old-3", account: "dave")
        _ = try await h.report("mid-3", account: "dave")
        #expect(try await h.status("dave") == .active)
        #expect(try await h.activeGrants() == ["new-1", "new-2", "new-3"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func aPurchaseTaggedWithAnotherAccountIsThatAccounts(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        h.commerce.accounts.add("alice")
        try await h.add(subscriptions: ["tagged": h.subscription("ACTIVE", tag: "alice")])
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: true)) {
            try await h.report("tagged", account: "mallory")
        }
        #expect(try await h.status("alice") == .active)
        #expect(try await h.status("mallory") == .none)
        // The same person's second account takes it without asking.
        h.commerce.accounts.set(.sameOwner, holder: "alice", reporter: "alice-2")
        guard case .serviceEntitlement(let state, let transferred) = try await h.report("tagged", account: "alice-2") else {
            Issue.record("not a plan")
            return
        }
        #expect(state.status == .active && transferred)
    }

    @Test(arguments: TestDatabaseKind.available)
    func addOnsAreGrantsOfTheirOwn(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["bundle": h.subscription("ACTIVE", addOn: true)])
        _ = try await h.report("bundle", account: "alice")
        try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "wf-pro")
        try await h.engine.requireEntitlement(tenantID: h.tenantID, accountID: "alice", workflowID: "wf-storage")
        // Reported by the add-on's id too: the same grants, one acknowledgement.
        _ = try await h.report("bundle", product: GoogleHarness.addOn, account: "alice")
        #expect(try await h.settlements() == ["acknowledge bundle"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func creditsAreGrantedOncePerOrderAndTheProductConsumed(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        h.commerce.accounts.add("bob")
        try await h.add(products: [("p-1", h.product(quantity: 2)), ("p-test", h.product(order: nil, test: true)),
                                   ("p-canceled", h.product(order: "GPA.9", state: 1)), ("p-pending", h.product(order: "GPA.8", state: 2)),
                                   ("p-bob", h.product(order: "GPA.7", tag: "bob"))])
        let outcomes = try await withThrowingTaskGroup(of: PurchaseOutcome.self) { group in
            for _ in 0..<20 { group.addTask { try await h.report("p-1", product: GoogleHarness.credits, account: "alice") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 == .creditPackage(creditsGranted: 200) })
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 200)
        // A test order has no order id: the token keys it. Non-production takes it.
        #expect(try await h.report("p-test", product: GoogleHarness.credits, account: "alice") == .creditPackage(creditsGranted: 100))
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 300)
        #expect(try await h.settlements().sorted() == ["consume p-1", "consume p-test"])
        await #expect(throws: PurchaseError(.purchaseRevoked, .revoked)) {
            try await h.report("p-canceled", product: GoogleHarness.credits, account: "alice")
        }
        await #expect(throws: PurchaseError(.purchaseInvalid, .google(.pending))) {
            try await h.report("p-pending", product: GoogleHarness.credits, account: "alice")
        }
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.purchaseToAccount), canTransfer: false)) {
            try await h.report("p-bob", product: GoogleHarness.credits, account: "alice")
        }
        // Another account reporting a granted order gets nothing.
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.purchaseToAccount), canTransfer: false)) {
            try await h.report("p-1", product: GoogleHarness.credits, account: "mallory")
        }
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "mallory")["WALLET"] == 0)
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentReportsOfOneSubscriptionGrantAndAcknowledgeOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["busy": h.subscription("ACTIVE")])
        let statuses = try await withThrowingTaskGroup(of: EntitlementState.Status.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    guard case .serviceEntitlement(let state, _) = try await h.report("busy", account: "alice") else { return .none }
                    return state.status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .active, count: 20))
        #expect(try await h.activeGrants() == ["busy"])
        #expect(try await h.settlements() == ["acknowledge busy"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func testPurchasesAreRefusedOnAProductionConfiguration(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind, production: true)
        defer { h.close() }
        try await h.add(subscriptions: ["tester": h.subscription("ACTIVE", test: true)], products: [("p-tester", h.product(order: nil, test: true))])
        await #expect(throws: PurchaseError(.purchaseInvalid, .google(.testPurchase))) { try await h.report("tester", account: "alice") }
        await #expect(throws: PurchaseError(.purchaseInvalid, .google(.testPurchase))) {
            try await h.report("p-tester", product: GoogleHarness.credits, account: "alice")
        }
        #expect(try await h.status("alice") == .none)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 0)
        #expect(try await h.settlements().isEmpty)
    }

    @Test(arguments: TestDatabaseKind.available)
    func reportsGoogleCannotAnswerAreRefusedWithoutGranting(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["known": h.subscription("ACTIVE")])
        await #expect(throws: PurchaseError(.purchaseInvalid, .google(.unknownToStore))) { try await h.report("unknown", account: "alice") }
        for token in ["", ".", "..", "a/b", String(repeating: "x", count: 2049), "tok\u{0}en"] {
            await #expect(throws: PurchaseError(.purchaseInvalid, .google(.purchaseTokenMalformed))) { try await h.report(token, account: "alice") }
        }
        await #expect(throws: PurchaseError(.productUnknown, .productNotSold)) { try await h.report("known", product: "unsold", account: "alice") }
        // The product reported is not in the purchase.
        await #expect(throws: PurchaseError(.purchaseInvalid, .productMismatch)) {
            try await h.report("known", product: GoogleHarness.addOn, account: "alice")
        }
        try await h.google.failAPI(with: 503)
        await #expect(throws: PurchaseError(.storeUnavailable, .google(.unreachable))) { try await h.report("known", account: "alice") }
        try await h.google.failAPI(with: 403)
        await #expect(throws: PurchaseError(.storeNotConfigured, .google(.accessRefused))) { try await h.report("known", account: "alice") }
        try await h.google.failAPI(with: nil)
        #expect(try await h.status("alice") == .none)
        guard case .serviceEntitlement(let state, false) = try await h.report("known", account: "alice") else {
            Issue.record("not a plan")
            return
        }
        #expect(state.status == .active)
    }
}

extension GoogleHarness {
    /// The purchase tokens whose grants give access now, sorted.
    func activeGrants() async throws -> [String] {
        let (now, tenantID) = (clock.now, tenantID)
        let tokens = try await commerce.store.database.read { db in
            try db.query(
                """
                SELECT s.*, t.purchase_token FROM commerce_subscriptions s JOIN commerce_google_tokens t
                  ON t.tenant_id = s.tenant_id AND t.token_hash = s.google_token_hash WHERE s.tenant_id = ?
                """,
                [.text(tenantID)]
            ).filter { try Subscription($0).state(at: now).hasAccess }.map { try $0.get("purchase_token", as: String.self) }
        }
        return Set(tokens).sorted()
    }
}
