import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
@testable import GatehouseCommerceEngine

/// A commerce engine whose Google Play connection is the stand-in: the tenant's package and
/// service account key saved, the account known to the stand-in's token endpoint, a plan sold
/// as the Play subscription `pro` (base plan `monthly`), an add-on plan `storage` and a credit
/// package `credits_100`.
final class GoogleHarness: @unchecked Sendable {
    static let package = "com.example.gatehouse"
    static let subscription = "pro"
    static let addOn = "storage"
    static let credits = "credits_100"

    let commerce: CommerceHarness
    let google: GoogleStandIn
    let proPlan: Plan
    let storagePlan: Plan

    var engine: CommerceEngine { commerce.engine }
    var tenantID: String { commerce.tenantID }
    var clock: ManualClock { commerce.clock }

    init(_ kind: TestDatabaseKind, production: Bool = false) async throws {
        google = try await GoogleStandIn.start()
        commerce = try await CommerceHarness(
            kind, google: GoogleEndpoints(playAPI: google.baseURL, token: google.tokenURL, certificates: google.certificatesURL),
            http: CurlHTTPClient())
        let file = try GoogleServiceAccountKeyFile.generate()
        try await google.register(file)
        var patch = GooglePlayConfigPatch()
        patch.packageName = Self.package
        patch.serviceAccountKey = file.json
        patch.production = production
        _ = try await commerce.engine.updateGooglePlayConfig(tenantID: commerce.tenantID, patch)
        proPlan = try await commerce.engine.createPlan(
            tenantID: commerce.tenantID, displayName: "Pro", interval: .monthly, appleProductID: "com.example.gatehouse.pro",
            googleProductID: Self.subscription + ":monthly", gatedWorkflowID: "wf-pro")
        storagePlan = try await commerce.engine.createPlan(
            tenantID: commerce.tenantID, displayName: "Storage", interval: .monthly, appleProductID: "com.example.gatehouse.storage",
            googleProductID: Self.addOn, gatedWorkflowID: "wf-storage")
        _ = try await commerce.engine.setCreditPackages(
            tenantID: commerce.tenantID, provider: "google",
            [CreditPackage(provider: "google", platformProductId: Self.credits, credits: 100, displayName: nil)])
    }

    func close() {
        google.stop()
        commerce.close()
    }

    /// Google's time format, `days` from the engine's clock.
    func time(days: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: clock.now.addingTimeInterval(days * 86_400))
    }

    /// A `SubscriptionPurchaseV2` of `pro` in `state`, expiring in `days`, as the discovery document shapes it.
    func subscription(
        _ state: String, expiresInDays days: Double = 30, linked: String? = nil, tag: String? = nil, test: Bool = false, addOn: Bool = false
    ) -> [String: Any] {
        var items: [[String: Any]] = [[
            "productId": Self.subscription, "expiryTime": time(days: days), "latestSuccessfulOrderId": "GPA.3344-1122-3344-55667",
            "offerDetails": ["basePlanId": "monthly"], "autoRenewingPlan": ["autoRenewEnabled": state != "CANCELED"],
        ]]
        if addOn {
            items.append(["productId": Self.addOn, "expiryTime": time(days: days), "autoRenewingPlan": ["autoRenewEnabled": true]])
        }
        var purchase: [String: Any] = [
            "kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "GB", "startTime": time(days: 0),
            "subscriptionState": "SUBSCRIPTION_STATE_" + state, "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING", "lineItems": items,
        ]
        if let linked { purchase["linkedPurchaseToken"] = linked }
        if let tag { purchase["externalAccountIdentifiers"] = ["obfuscatedExternalAccountId": tag] }
        if test { purchase["testPurchase"] = [String: Any]() }
        return purchase
    }

    /// A `ProductPurchase` of the credit package.
    func product(order: String? = "GPA.1234-5678-9012-34567", state: Int = 0, test: Bool = false, tag: String? = nil, quantity: Int = 1) -> [String: Any] {
        var purchase: [String: Any] = [
            "kind": "androidpublisher#productPurchase", "purchaseTimeMillis": String(Int64(clock.now.timeIntervalSince1970 * 1000)),
            "purchaseState": state, "consumptionState": 0, "acknowledgementState": 0, "regionCode": "GB", "quantity": quantity,
            "productId": Self.credits,
        ]
        if let order { purchase["orderId"] = order }
        if test { purchase["purchaseType"] = 0 }
        if let tag { purchase["obfuscatedExternalAccountId"] = tag }
        return purchase
    }

    func add(subscriptions: [String: [String: Any]] = [:], products: [(String, [String: Any])] = []) async throws {
        try await google.add(package: Self.package, subscriptions: subscriptions, products: products.map { (Self.credits, $0.0, $0.1) })
    }

    /// Reports a Play purchase through verify-purchase as `account`.
    func report(_ token: String, product: String = subscription, account: String, transfer: Bool = false) async throws -> PurchaseOutcome {
        try await engine.verifyPurchase(
            tenantID: tenantID, accountID: account,
            PurchaseReport(platform: "google", platformProductId: product, transactionId: "", signedTransaction: nil, purchaseToken: token,
                           transferToCurrentAccount: transfer))
    }

    func status(_ account: String) async throws -> EntitlementState.Status { try await commerce.status(account) }

    /// The acknowledge and consume calls Google received, as `verb path-token`.
    func settlements() async throws -> [String] {
        try await google.log().compactMap { entry in
            guard let verb = entry.verb, entry.status < 300 else { return nil }
            return verb + " " + (entry.path.split(separator: "/").last.map { String($0.split(separator: ":")[0]) } ?? "")
        }
    }
}
