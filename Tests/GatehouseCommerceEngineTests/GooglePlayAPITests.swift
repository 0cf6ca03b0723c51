import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// The Play Developer API client against the stand-in, whose purchases are checked against
/// the API's own discovery document before it serves them: what is read is Google's shape.
@Suite struct GooglePlayAPITests {
    static let package = "com.example.gatehouse"
    static let states = ["PENDING", "ACTIVE", "PAUSED", "IN_GRACE_PERIOD", "ON_HOLD", "CANCELED", "EXPIRED", "PENDING_PURCHASE_CANCELED"]

    struct Setup {
        let google: GoogleStandIn
        let api: GooglePlayAPI
    }

    static func setUp() async throws -> Setup {
        let google = try await GoogleStandIn.start()
        let file = try GoogleServiceAccountKeyFile.generate()
        try await google.register(file)
        let key = try #require(ServiceAccountKey.parse(file.json)?.key)
        let tokens = GoogleAccessTokens(tokenURL: google.tokenURL, http: CurlHTTPClient(), clock: SystemClock())
        let api = GooglePlayAPI(
            baseURL: google.baseURL, packageName: package, token: { try await tokens.token(tenantID: "t1", key: key, replacing: $0) }, http: CurlHTTPClient())
        return Setup(google: google, api: api)
    }

    static func subscription(_ state: String, expiry: String = "2026-12-31T10:00:00.120Z") -> [String: Any] {
        [
            "kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "GB", "startTime": "2026-11-30T10:00:00.120Z",
            "subscriptionState": "SUBSCRIPTION_STATE_" + state, "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING",
            "linkedPurchaseToken": "old-token", "externalAccountIdentifiers": ["obfuscatedExternalAccountId": "acct-7"],
            "lineItems": [
                ["productId": "pro", "expiryTime": expiry, "latestSuccessfulOrderId": "GPA.3344-1122-3344-55667",
                 "offerDetails": ["basePlanId": "monthly", "offerTags": ["intro"]], "autoRenewingPlan": ["autoRenewEnabled": state != "CANCELED"]],
                // Google's Timestamp JSON may carry nine fractional digits.
                ["productId": "storage-addon", "expiryTime": expiry.replacingOccurrences(of: ".120Z", with: ".120000000Z"), "prepaidPlan": ["allowExtendAfterTime": "2026-12-28T10:00:00Z"]],
            ],
        ]
    }

    @Test func aSubscriptionInEveryStateIsReadAndAcknowledgedOnce() async throws {
        let setup = try await Self.setUp()
        defer { setup.google.stop() }
        var fixtures = Dictionary(uniqueKeysWithValues: Self.states.map { ("token-" + $0, Self.subscription($0)) })
        fixtures["token-test"] = Self.subscription("ACTIVE").merging(["testPurchase": [String: Any]()]) { $1 }
        try await setup.google.add(package: Self.package, subscriptions: fixtures)
        for state in Self.states {
            let read = try await setup.api.subscription(purchaseToken: "token-" + state)
            #expect(read.state == state && !read.isTest)
        }
        let active = try await setup.api.subscription(purchaseToken: "token-ACTIVE")
        let expiry = Date(timeIntervalSince1970: 1_798_711_200.12)
        #expect(active == PlaySubscription(
            state: "ACTIVE", linkedPurchaseToken: "old-token", acknowledged: false, obfuscatedAccountID: "acct-7", isTest: false,
            lineItems: [
                .init(productID: "pro", expiry: expiry, latestOrderID: "GPA.3344-1122-3344-55667", basePlanID: "monthly", autoRenewing: true),
                .init(productID: "storage-addon", expiry: expiry, latestOrderID: nil, basePlanID: nil, autoRenewing: nil),
            ]))
        #expect(try await setup.api.subscription(purchaseToken: "token-test").isTest)

        try await setup.api.acknowledgeSubscription("pro", purchaseToken: "token-ACTIVE")
        #expect(try await setup.api.subscription(purchaseToken: "token-ACTIVE").acknowledged)
        let calls = try await setup.google.log().filter { $0.verb != nil }
        #expect(calls.map(\.path) == ["/androidpublisher/v3/applications/\(Self.package)/purchases/subscriptions/pro/tokens/token-ACTIVE:acknowledge"])
        // One grant served every call.
        #expect(try await setup.google.log().filter { $0.path == "/token" }.count == 1)
    }

    @Test func aProductIsReadAcknowledgedAndConsumed() async throws {
        let setup = try await Self.setUp()
        defer { setup.google.stop() }
        let purchase: [String: Any] = [
            "kind": "androidpublisher#productPurchase", "purchaseTimeMillis": "1764928800000", "purchaseState": 0, "consumptionState": 0,
            "orderId": "GPA.1234-5678-9012-34567", "acknowledgementState": 0, "obfuscatedExternalAccountId": "acct-7", "regionCode": "GB",
            "quantity": 1, "productId": "credits-500", "purchaseToken": "product-token",
        ]
        try await setup.google.add(
            package: Self.package,
            products: [("credits-500", "product-token", purchase), ("credits-500", "test-token", purchase.merging(["purchaseType": 0]) { $1 })])
        let read = try await setup.api.product("credits-500", purchaseToken: "product-token")
        #expect(read == PlayProductPurchase(
            purchaseState: 0, consumed: false, acknowledged: false, orderID: "GPA.1234-5678-9012-34567", obfuscatedAccountID: "acct-7",
            purchaseType: nil, quantity: 1))
        #expect(try await setup.api.product("credits-500", purchaseToken: "test-token").purchaseType == 0)
        try await setup.api.consumeProduct("credits-500", purchaseToken: "product-token")
        let after = try await setup.api.product("credits-500", purchaseToken: "product-token")
        #expect(after.consumed && after.acknowledged)
        #expect(try await setup.google.log().compactMap(\.verb) == ["consume"])
    }

    @Test func unknownTokensRefusalsAndOutagesAreToldApart() async throws {
        let setup = try await Self.setUp()
        defer { setup.google.stop() }
        await #expect(throws: GoogleAPIError.unknownPurchase) { try await setup.api.subscription(purchaseToken: "never-issued") }
        // Tokens Google could not have issued are not sent: `..` would fold into another path.
        for token in ["..", ".", "", "a/b", "a%2Fb", String(repeating: "a", count: 2049), "to ken"] {
            await #expect(throws: GoogleAPIError.unknownPurchase) { try await setup.api.subscription(purchaseToken: token) }
        }
        #expect(try await setup.google.log().filter { $0.path != "/token" }.count == 1)
        let stranger = GooglePlayAPI(baseURL: setup.google.baseURL, packageName: Self.package, token: { _ in "ya29.not-issued" }, http: CurlHTTPClient())
        await #expect(throws: GoogleAPIError.refused(status: 401)) { try await stranger.subscription(purchaseToken: "never-issued") }
        // A token Google revoked before it expired is replaced once, and the call goes through.
        try await setup.google.add(package: Self.package, subscriptions: ["live": Self.subscription("ACTIVE")])
        _ = try await setup.api.subscription(purchaseToken: "live")
        try await setup.google.revokeTokens()
        #expect(try await setup.api.subscription(purchaseToken: "live").state == "ACTIVE")
        #expect(try await setup.google.log().filter { $0.path == "/token" }.count == 2)
        try await setup.google.failAPI(with: 503)
        do {
            _ = try await setup.api.product("credits-500", purchaseToken: "x")
            Issue.record("a 503 gave a purchase")
        } catch let error as GoogleAPIError {
            #expect(error == .unavailable(status: 503) && error.isRetryable)
        }
    }

    /// The stand-in's check is real: shapes Google's document does not define are refused.
    @Test func fixturesOutsideTheDiscoveryDocumentAreRefused() async throws {
        let google = try await GoogleStandIn.start()
        defer { google.stop() }
        for fixture in [
            Self.subscription("ACTIVE").merging(["subscriptionState": "SUBSCRIPTION_STATE_REVOKED"]) { $1 },
            Self.subscription("ACTIVE").merging(["latestOrderId": "GPA.1"]) { $1 },
            Self.subscription("ACTIVE").merging(["lineItems": [["productId": 7]]]) { $1 },
        ] {
            await #expect(throws: TestSetupError.self) { try await google.add(package: Self.package, subscriptions: ["t": fixture]) }
        }
        await #expect(throws: TestSetupError.self) {
            try await google.add(package: Self.package, products: [("p", "t", ["purchaseTimeMillis": 1_764_928_800_000])])
        }
    }
}
