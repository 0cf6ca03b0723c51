import Foundation
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// SubscriptionFlow's account tokens and purchase rules (seed 003) in the engine.
@Suite struct CustomerPurchaseTests {
    @Test(arguments: TestDatabaseKind.available)
    func accountTokensIssueReuseRotateAndRevoke(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let first = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "cus-1", rotate: false)
        #expect(!first.reused && first.clientSecret.count == 48 && UUID(uuidString: first.accountToken.token) != nil)
        #expect(try await h.engine.authenticateAccountToken(first.accountToken.token, secret: first.clientSecret) == (h.tenantID, "cus-1"))
        let stored = try await h.store.database.read { db in
            try db.queryOne("SELECT secret_hash FROM commerce_account_tokens WHERE token = ?", first.accountToken.token)!.get("secret_hash", as: [UInt8].self)
        }
        #expect(stored.count == 32 && !String(decoding: stored, as: UTF8.self).contains(first.clientSecret))

        // Reuse keeps the token (purchases tagged with it keep linking) and replaces the secret.
        let again = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "cus-1", rotate: false)
        #expect(again.reused && again.accountToken.token == first.accountToken.token && again.clientSecret != first.clientSecret)
        await #expect(throws: AccountTokenRefused.self) { _ = try await h.engine.authenticateAccountToken(first.accountToken.token, secret: first.clientSecret) }
        await #expect(throws: AccountTokenRefused.self) { _ = try await h.engine.authenticateAccountToken(first.accountToken.token, secret: "") }

        // Rotation issues a new token and revokes the old one.
        let rotated = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "cus-1", rotate: true)
        #expect(!rotated.reused && rotated.accountToken.token != first.accountToken.token)
        await #expect(throws: AccountTokenRefused.self) { _ = try await h.engine.authenticateAccountToken(again.accountToken.token, secret: again.clientSecret) }
        let revoked = try await h.engine.revokeAccountToken(tenantID: h.tenantID, token: rotated.accountToken.token)
        #expect(revoked.revokedAt == h.clock.now)
        await #expect(throws: AccountTokenRefused.self) {
            _ = try await h.engine.authenticateAccountToken(rotated.accountToken.token, secret: rotated.clientSecret)
        }
        await #expect(throws: CommerceError.self) { _ = try await h.engine.revokeAccountToken(tenantID: h.tenantID, token: "nope") }
        await #expect(throws: CommerceError.self) { _ = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "", rotate: false) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func purchasesLinkOnlyToTheirCustomer(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let mine = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "cus-1", rotate: false).accountToken.token
        let theirs = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "cus-2", rotate: false).accountToken.token
        func report(_ jws: String, as customer: String = "cus-1") async throws -> CustomerPurchaseOutcome {
            try await h.engine.reportCustomerPurchase(tenantID: h.tenantID, customerID: customer, signedTransaction: jws)
        }
        let tagged = try h.subscription("5000000000000001", original: "5000000000000001", extra: ["appAccountToken": mine])
        guard case .linked(let list) = try await report(tagged.jws) else { Issue.record("not linked"); return }
        #expect(list.map(\.key) == ["wf-1"] && list[0].name == "Monthly" && list[0].grants.map(\.status) == ["Active"])
        // Reporting again is safe; the other customer may not have it, whatever they send.
        guard case .linked = try await report(tagged.jws) else { Issue.record("not idempotent"); return }
        #expect(try await report(tagged.jws, as: "cus-2") == .conflict)
        let taggedForThem = try h.subscription("5000000000000002", original: "5000000000000002", extra: ["appAccountToken": theirs])
        #expect(try await report(taggedForThem.jws) == .conflict)

        // Untagged: refused unless the tenant lets the app claim; then first come, others refused.
        let untagged = try h.subscription("5000000000000003", original: "5000000000000003")
        #expect(try await report(untagged.jws) == .refused)
        var patch = AppleConfigPatch()
        patch.claimUntaggedPurchases = true
        _ = try await h.engine.updateAppleConfig(tenantID: h.tenantID, patch)
        guard case .linked = try await report(untagged.jws, as: "cus-2") else { Issue.record("claim refused"); return }
        #expect(try await report(untagged.jws) == .refused)

        // Every other refusal is the same answer.
        var tampered = tagged.jws
        tampered.removeLast(4)
        tampered += "AAAA"
        #expect(try await report(tampered) == .refused)
        #expect(try await report("garbage") == .refused)
        let unknown = try h.subscription("5000000000000004", original: "5000000000000004", product: "com.example.unknown", extra: ["appAccountToken": mine])
        #expect(try await report(unknown.jws) == .refused)

        // A token revoked later still brings its purchases to its customer.
        _ = try await h.engine.revokeAccountToken(tenantID: h.tenantID, token: mine)
        let old = try h.subscription("5000000000000005", original: "5000000000000005", extra: ["appAccountToken": mine])
        guard case .linked(let after) = try await report(old.jws) else { Issue.record("revoked tag refused"); return }
        #expect(after.first?.grants.count == 2)

        // A customer's plan never moves to a Datacove account, whatever that account asks.
        await #expect(throws: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: false)) {
            _ = try await h.report(tagged.jws, id: "5000000000000001", account: "someone", transfer: true)
        }

        // The backend may register an untagged purchase for any customer.
        let offApp = try h.subscription("5000000000000006", original: "5000000000000006")
        guard case .linked = try await h.engine.registerCustomerPurchase(tenantID: h.tenantID, customerID: "cus-3", signedTransaction: offApp.jws)
        else { Issue.record("backend registration refused"); return }
        #expect(try await h.engine.customerEntitlements(tenantID: h.tenantID, customerID: "cus-3").count == 1)

        // A purchase first seen through a notification links to its tag's customer.
        let fresh = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "cus-4", rotate: false).accountToken.token
        let subscribed = try h.subscription("5000000000000007", original: "5000000000000007", extra: ["appAccountToken": fresh])
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("SUBSCRIBED", subtype: "INITIAL_BUY", transaction: subscribed.jws))
            == .applied)
        #expect(try await h.engine.customerEntitlements(tenantID: h.tenantID, customerID: "cus-4").map(\.key) == ["wf-1"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func sandboxPurchaseOnAProductionConnectionRecordsNothing(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind, production: true)
        defer { h.close() }
        let token = try await h.engine.issueAccountToken(tenantID: h.tenantID, customerID: "reviewer", rotate: false).accountToken.token
        let review = try h.subscription("5000000000000101", original: "5000000000000101", extra: ["appAccountToken": token])
        guard case .sandbox(let list) = try await h.engine.reportCustomerPurchase(tenantID: h.tenantID, customerID: "reviewer", signedTransaction: review.jws)
        else { Issue.record("not answered as sandbox"); return }
        #expect(list.map(\.key) == ["wf-1"])
        #expect(try await h.engine.customerEntitlements(tenantID: h.tenantID, customerID: "reviewer").isEmpty)
        let count = try await h.store.database.read { db in try db.query("SELECT id FROM commerce_subscriptions", []).count }
        #expect(count == 0)
        // Xcode-signed data stays refused on production.
        let xcode = try h.subscription("5000000000000102", original: "5000000000000102", extra: ["appAccountToken": token, "environment": "Xcode"])
        #expect(try await h.engine.reportCustomerPurchase(tenantID: h.tenantID, customerID: "reviewer", signedTransaction: xcode.jws) == .refused)
    }
}
