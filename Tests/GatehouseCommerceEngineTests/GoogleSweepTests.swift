import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// The Google Play sweeper on a manual clock: acknowledgements retried after a failure, the
/// unacknowledged gauge, and the `voidedpurchases.list` backstop, on both databases.
@Suite struct GoogleSweepTests {
    @Test(arguments: TestDatabaseKind.available)
    func aFailedAcknowledgementIsRetriedUntilGoogleTakesIt(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["sub": h.subscription("ACTIVE")], products: [("prod", h.product())])
        try await h.google.failSettlements(with: 503)
        // Granted although Google did not hear of it: the grant stands.
        _ = try await h.report("sub", account: "alice")
        _ = try await h.report("prod", product: GoogleHarness.credits, account: "alice")
        #expect(try await h.status("alice") == .active)
        #expect(try await h.settlements().isEmpty)
        // Within the reporting path's grace nothing is retried.
        #expect(try await h.engine.sweepGooglePlay().failed == 0)
        h.clock.advance(by: 150)
        #expect(try await h.engine.sweepGooglePlay().failed == 2)
        // Backing off: the next attempt waits four minutes after the second failure.
        h.clock.advance(by: 150)
        #expect(try await h.engine.sweepGooglePlay() == GooglePlaySweep())
        try await h.google.failSettlements(with: nil)
        h.clock.advance(by: 120)
        #expect(try await h.engine.sweepGooglePlay().settled == 2)
        #expect(try await h.settlements().sorted() == ["acknowledge sub", "consume prod"])
        #expect(try await h.engine.sweepGooglePlay() == GooglePlaySweep())
        #expect(try await h.engine.unacknowledgedGooglePurchases().isEmpty)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aGrantGoogleNeverHeardOfShowsAfterADayAndIsLeftAfterThree(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["sub": h.subscription("ACTIVE")])
        try await h.google.failSettlements(with: 503)
        _ = try await h.report("sub", account: "alice")
        #expect(try await h.engine.unacknowledgedGooglePurchases().isEmpty)
        h.clock.advance(by: 86_400 + 60)
        #expect(try await h.engine.unacknowledgedGooglePurchases() == [h.tenantID: 1])
        // Past Google's three days it is no longer retried (Google has refunded it); the gauge keeps showing it.
        h.clock.advance(by: 2 * 86_400)
        let attempts = try await h.google.log().filter { $0.verb != nil }.count
        #expect(try await h.engine.sweepGooglePlay().failed == 0)
        #expect(try await h.google.log().filter { $0.verb != nil }.count == attempts)
        #expect(try await h.engine.unacknowledgedGooglePurchases() == [h.tenantID: 1])
    }

    @Test(arguments: TestDatabaseKind.available)
    func theVoidedPurchasesBackstopRevokesOnceWhicheverComesFirst(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["sub-a": h.subscription("ACTIVE"), "sub-b": h.subscription("ACTIVE")],
                        products: [("prod-a", h.product(order: "GPA.10")), ("prod-b", h.product(order: "GPA.11"))])
        _ = try await h.report("sub-a", account: "alice")
        _ = try await h.report("sub-b", account: "bob")
        _ = try await h.report("prod-a", product: GoogleHarness.credits, account: "alice")
        _ = try await h.report("prod-b", product: GoogleHarness.credits, account: "bob")
        let millis = String(Int64(h.clock.now.timeIntervalSince1970 * 1000))
        func voided(_ token: String, order: String) -> [String: Any] {
            ["kind": "androidpublisher#voidedPurchase", "purchaseToken": token, "orderId": order, "purchaseTimeMillis": millis,
             "voidedTimeMillis": millis, "voidedSource": 0, "voidedReason": 1]
        }
        // bob's void arrives by notification first (Google confirms it); the list then reports both.
        try await h.add(subscriptions: ["sub-b": h.subscription("EXPIRED", expiresInDays: 0)], products: [("prod-b", h.product(order: "GPA.11", state: 1))])
        _ = try await h.engine.receiveGoogleNotification(
            GooglePlayNotification(packageName: GoogleHarness.package, eventTime: h.clock.now, event: .voided(purchaseToken: "prod-b", orderID: "GPA.11", productType: 2, refundType: 1)),
            messageID: "void-b", tenantID: h.tenantID)
        _ = try await h.engine.receiveGoogleNotification(
            GooglePlayNotification(packageName: GoogleHarness.package, eventTime: h.clock.now, event: .voided(purchaseToken: "sub-b", orderID: "GPA.3344-1122-3344-55667", productType: 1, refundType: 1)),
            messageID: "void-b-sub", tenantID: h.tenantID)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "bob")["WALLET"] == 0)
        #expect(try await h.status("bob") == .revoked)
        try await h.google.addVoided(package: GoogleHarness.package, [
            (voided("prod-a", order: "GPA.10"), false), (voided("prod-b", order: "GPA.11"), false),
            (voided("sub-a", order: "GPA.3344-1122-3344-55667"), true), (voided("sub-b", order: "GPA.3344-1122-3344-55667..1"), true),
            (voided("never-reported", order: "GPA.12"), false),
        ])
        #expect(try await h.engine.sweepGooglePlay().voided == 2)  // alice's two; bob's were voided already
        #expect(try await h.status("alice") == .revoked)
        #expect(try await h.status("bob") == .revoked)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 0)
        // The list is read with subscriptions included, over Google's 30 days (less a day's margin), and once a day.
        let reads = try await h.google.log().filter { $0.path.hasSuffix("/voidedpurchases") }
        #expect(reads.count == 1 && reads.first?.query?["type"] == "1")
        #expect(reads.first?.query?["startTime"] == String(Int64(h.clock.now.addingTimeInterval(-29 * 86_400).timeIntervalSince1970 * 1000)))
        #expect(try await h.engine.sweepGooglePlay().voided == 0)
        #expect(try await h.google.log().filter { $0.path.hasSuffix("/voidedpurchases") }.count == 1)
        // A notification after the backstop changes nothing more; a purchase voided before it was reported grants nothing.
        #expect(try await h.engine.receiveGoogleNotification(
            GooglePlayNotification(packageName: GoogleHarness.package, eventTime: h.clock.now, event: .voided(purchaseToken: "prod-a", orderID: "GPA.10", productType: 2, refundType: 1)),
            messageID: "void-a", tenantID: h.tenantID) == .recorded)
        try await h.add(products: [("never-reported", h.product(order: "GPA.12"))])
        await #expect(throws: PurchaseError(.purchaseRevoked, .revoked)) {
            try await h.report("never-reported", product: GoogleHarness.credits, account: "carol")
        }
    }
}
