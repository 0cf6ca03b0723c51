import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// Real-time developer notifications: each only a reason to read the purchase again, applied
/// once per Pub/Sub message, on both databases.
@Suite struct GoogleNotificationTests {
    static func subscription(_ token: String, type: Int, at: Date? = nil) -> GooglePlayNotification {
        GooglePlayNotification(packageName: GoogleHarness.package, eventTime: at, event: .subscription(type: type, purchaseToken: token))
    }

    @Test(arguments: TestDatabaseKind.available)
    func aTaggedPurchaseNobodyReportedIsGrantedToItsAccountAndAcknowledged(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        h.commerce.accounts.add("alice")
        try await h.add(subscriptions: [
            "first": h.subscription("ACTIVE", tag: "alice"), "untagged": h.subscription("ACTIVE"), "stranger": h.subscription("ACTIVE", tag: "nobody"),
        ])
        #expect(try await h.engine.receiveGoogleNotification(Self.subscription("first", type: 4), messageID: "m-1", tenantID: h.tenantID) == .applied)
        #expect(try await h.status("alice") == .active)
        // Untagged, or tagged with no account: recorded, granted when the app reports it.
        _ = try await h.engine.receiveGoogleNotification(Self.subscription("untagged", type: 4), messageID: "m-2", tenantID: h.tenantID)
        _ = try await h.engine.receiveGoogleNotification(Self.subscription("stranger", type: 4), messageID: "m-3", tenantID: h.tenantID)
        #expect(try await h.settlements() == ["acknowledge first"])
        // Nobody holds them: the sweeper does not acknowledge them either, so Google can still refund the buyer.
        h.clock.advance(by: 300)
        #expect(try await h.engine.sweepGooglePlay() == GooglePlaySweep())
        #expect(try await h.settlements() == ["acknowledge first"])
        _ = try await h.report("untagged", account: "bob")
        #expect(try await h.status("bob") == .active)
        #expect(try await h.settlements() == ["acknowledge first", "acknowledge untagged"])

        // Expired, then re-subscribed from the Play Store with a new token and no link: the tag finds alice.
        try await h.add(subscriptions: ["first": h.subscription("EXPIRED", expiresInDays: 0, tag: "alice"),
                                        "second": h.subscription("ACTIVE", tag: "alice")])
        _ = try await h.engine.receiveGoogleNotification(Self.subscription("first", type: 13), messageID: "m-4", tenantID: h.tenantID)
        #expect(try await h.status("alice") == .expired)
        _ = try await h.engine.receiveGoogleNotification(Self.subscription("second", type: 4), messageID: "m-5", tenantID: h.tenantID)
        #expect(try await h.status("alice") == .active)
    }

    @Test(arguments: TestDatabaseKind.available)
    func duplicatedAndReorderedNotificationsEndAsGoogleSays(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["sub": h.subscription("IN_GRACE_PERIOD", expiresInDays: 3)])
        _ = try await h.report("sub", account: "alice")
        #expect(try await h.status("alice") == .inGrace)
        // Google says ON_HOLD now; the IN_GRACE_PERIOD notification arrives after the ON_HOLD one
        // and twice: each read Google again, so access follows Google, not the order.
        try await h.add(subscriptions: ["sub": h.subscription("ON_HOLD", expiresInDays: 0)])
        let hold = Self.subscription("sub", type: 5)
        let grace = Self.subscription("sub", type: 6)
        #expect(try await h.engine.receiveGoogleNotification(hold, messageID: "hold", tenantID: h.tenantID) == .applied)
        #expect(try await h.engine.receiveGoogleNotification(grace, messageID: "grace", tenantID: h.tenantID) == .applied)
        #expect(try await h.engine.receiveGoogleNotification(grace, messageID: "grace", tenantID: h.tenantID) == .duplicate)
        #expect(try await h.status("alice") == .billingRetry)
        // Twenty deliveries of one message at once, racing reports of the token: one record.
        try await h.add(subscriptions: ["sub": h.subscription("ACTIVE")])
        let recovered = Self.subscription("sub", type: 1)
        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    if index % 2 == 0 { _ = try await h.report("sub", account: "alice") }
                    return try await h.engine.receiveGoogleNotification(recovered, messageID: "recovered", tenantID: h.tenantID).rawValue
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == "applied" }.count == 1 && outcomes.filter { $0 == "duplicate" }.count == 19)
        #expect(try await h.status("alice") == .active)
        #expect(try await h.activeGrants() == ["sub"])
        #expect(try await h.settlements() == ["acknowledge sub"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func aRevocationOrAVoidEndsAccessAtOnceAndTakesCreditsBackOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: ["revoked": h.subscription("ACTIVE"), "voided": h.subscription("ACTIVE"), "refunded": h.subscription("ACTIVE")],
                        products: [("credits", h.product()), ("early-void", h.product(order: "GPA.2"))])
        _ = try await h.report("revoked", account: "alice")
        _ = try await h.report("voided", account: "bob")
        _ = try await h.report("refunded", account: "dave")
        _ = try await h.report("credits", product: GoogleHarness.credits, account: "carol")
        // SUBSCRIPTION_REVOKED: Google's state is read again; while it still grants access, it stands.
        let revoked = Self.subscription("revoked", type: 12, at: h.clock.now)
        #expect(try await h.engine.receiveGoogleNotification(revoked, messageID: "r-1", tenantID: h.tenantID) == .applied)
        #expect(try await h.status("alice") == .active)
        // Google revoked it: access ends now, as revoked.
        try await h.add(subscriptions: ["revoked": h.subscription("EXPIRED", expiresInDays: 0)])
        _ = try await h.engine.receiveGoogleNotification(revoked, messageID: "r-2", tenantID: h.tenantID)
        #expect(try await h.status("alice") == .revoked)
        // A later read of the token does not give it back.
        _ = try await h.report("revoked", account: "alice")
        #expect(try await h.status("alice") == .revoked)

        func void(_ token: String, _ type: Int, order: String = "GPA.3344-1122-3344-55667", id: String) async throws -> NotificationOutcome {
            try await h.engine.receiveGoogleNotification(
                GooglePlayNotification(packageName: GoogleHarness.package, eventTime: h.clock.now,
                                       event: .voided(purchaseToken: token, orderID: order, productType: type, refundType: 1)),
                messageID: id, tenantID: h.tenantID)
        }
        // A refund Google did not revoke with (the subscription still runs), or of an earlier renewal: nothing ends.
        #expect(try await void("refunded", 1, id: "v-0") == .recorded)
        try await h.add(subscriptions: ["refunded": h.subscription("EXPIRED", expiresInDays: 0)])
        #expect(try await void("refunded", 1, order: "GPA.3344-1122-3344-55667..0", id: "v-00") == .recorded)
        #expect(try await h.status("dave") != .revoked)
        // Google confirms the void (the subscription no longer runs): revoked.
        try await h.add(subscriptions: ["voided": h.subscription("EXPIRED", expiresInDays: 0)])
        #expect(try await void("voided", 1, id: "v-1") == .applied)
        #expect(try await h.status("bob") == .revoked)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "carol")["WALLET"] == 100)
        #expect(try await void("credits", 2, id: "v-2a") == .recorded)  // Google still says purchased
        try await h.add(products: [("credits", h.product(state: 1))])
        #expect(try await void("credits", 2, id: "v-2") == .applied)
        #expect(try await void("credits", 2, id: "v-3") == .recorded)  // another message about the same void: nothing more
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "carol")["WALLET"] == 0)
        // Voided before the app reported it: Google says canceled, so the report grants nothing.
        try await h.add(products: [("early-void", h.product(order: "GPA.2", state: 1))])
        #expect(try await void("early-void", 2, id: "v-4") == .recorded)
        await #expect(throws: PurchaseError(.purchaseRevoked, .revoked)) {
            try await h.report("early-void", product: GoogleHarness.credits, account: "carol")
        }
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "carol")["WALLET"] == 0)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aTaggedOneTimePurchaseIsGrantedFromItsNotification(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        h.commerce.accounts.add("alice")
        try await h.add(products: [("tagged", h.product(tag: "alice")), ("untagged", h.product(order: "GPA.5"))])
        func purchased(_ token: String, id: String) async throws -> NotificationOutcome {
            try await h.engine.receiveGoogleNotification(
                GooglePlayNotification(packageName: GoogleHarness.package, eventTime: nil,
                                       event: .oneTimeProduct(type: 1, purchaseToken: token, productID: GoogleHarness.credits)),
                messageID: id, tenantID: h.tenantID)
        }
        #expect(try await purchased("tagged", id: "p-1") == .applied)
        #expect(try await purchased("untagged", id: "p-2") == .recorded)
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 100)
        // The app's own report afterwards answers the same grant.
        #expect(try await h.report("tagged", product: GoogleHarness.credits, account: "alice") == .creditPackage(creditsGranted: 100))
        #expect(try await h.engine.wallet(tenantID: h.tenantID, accountID: "alice")["WALLET"] == 100)
        #expect(try await h.settlements() == ["consume tagged"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func pushesAreAuthorizedForTheTenantOfTheirPackage(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        let audience = "https://gatehouse.example/webhooks/google-play"
        let email = "pubsub-push@gatehouse-test.iam.gserviceaccount.com"
        var patch = GooglePlayConfigPatch()
        patch.pushAudience = .some(audience)
        patch.pushServiceAccountEmail = .some(email)
        _ = try await h.engine.updateGooglePlayConfig(tenantID: h.tenantID, patch)
        // Issued at the engine's (manual) clock, which a slow run leaves behind real time.
        let now = Int(h.clock.now.timeIntervalSince1970)
        let issued: [String: Any] = ["iat": now, "exp": now + 3600]
        let token = try await h.google.pushToken(audience: audience, email: email, claims: issued)
        #expect(try await h.engine.authorizeGooglePush(bearer: token, packageName: GoogleHarness.package) == h.tenantID)
        #expect(try await h.engine.authorizeGooglePush(bearer: token, packageName: "com.example.other") == nil)
        #expect(try await h.engine.authorizeGooglePush(bearer: token, packageName: "not a package\u{0}") == nil)
        let forged: [([String: Any], PushTokenRefusal)] = [
            (["aud": "https://elsewhere.example"], .wrongAudience), (["iss": "https://evil.example"], .wrongIssuer),
            (["email": "other@example.iam.gserviceaccount.com"], .wrongAccount), (["email_verified": false], .wrongAccount),
            (["exp": now - 600, "iat": now - 4200], .expired),
        ]
        for (claims, refusal) in forged {
            let bad = try await h.google.pushToken(audience: audience, email: email, claims: issued.merging(claims) { $1 })
            await #expect(throws: refusal) { try await h.engine.authorizeGooglePush(bearer: bad, packageName: GoogleHarness.package) }
        }
        await #expect(throws: PushTokenRefusal.malformed) { try await h.engine.authorizeGooglePush(bearer: nil, packageName: GoogleHarness.package) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aChainWithAGapEndsWithTheOwnerOnTheNewestToken(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        try await h.add(subscriptions: [
            "t1": h.subscription("ACTIVE"), "t2": h.subscription("ACTIVE", linked: "t1"), "t3": h.subscription("ACTIVE", linked: "t2"),
        ])
        _ = try await h.report("t1", account: "alice")
        // t3's notification comes first, untagged; t2 (which t3 replaced) is not known yet.
        _ = try await h.engine.receiveGoogleNotification(Self.subscription("t3", type: 4), messageID: "t3", tenantID: h.tenantID)
        _ = try await h.engine.receiveGoogleNotification(Self.subscription("t2", type: 4), messageID: "t2", tenantID: h.tenantID)
        #expect(try await h.status("alice") == .active)
        #expect(try await h.activeGrants() == ["t3"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func messageIDsAreOnlyUniqueWithinATenant(_ kind: TestDatabaseKind) async throws {
        let h = try await GoogleHarness(kind)
        defer { h.close() }
        let other = try await TenantDirectory(environment: h.commerce.environment).createTenant(name: "Other").id
        let test = GooglePlayNotification(packageName: GoogleHarness.package, eventTime: nil, event: .test)
        #expect(try await h.engine.receiveGoogleNotification(test, messageID: "4411", tenantID: h.tenantID) == .recorded)
        #expect(try await h.engine.receiveGoogleNotification(test, messageID: "4411", tenantID: other) == .recorded)
        #expect(try await h.engine.receiveGoogleNotification(test, messageID: "4411", tenantID: other) == .duplicate)
        // A kind this server does not act on is recorded, so Pub/Sub stops delivering it.
        let unknown = try #require(GooglePlayNotification.parse(Data(#"{"packageName":"com.example.gatehouse","pendingRefundReviewNotification":{"purchaseToken":"x"}}"#.utf8)))
        #expect(unknown.event == .other)
        #expect(try await h.engine.receiveGoogleNotification(unknown, messageID: "4412", tenantID: h.tenantID) == .recorded)
        #expect(GooglePlayNotification.parse(Data(#"{"eventTimeMillis":"1"}"#.utf8)) == nil)
    }
}
