import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
@testable import GatehouseCommerceEngine

/// A commerce engine over a fresh database with one non-production tenant that trusts the
/// test chain, a monthly plan, a one-year plan, a credit package and a manual clock.
final class CommerceHarness: @unchecked Sendable {
    let store: TestDatabase
    let clock = ManualClock(Date(timeIntervalSince1970: Double(Int64(Date().timeIntervalSince1970))))
    let engine: CommerceEngine
    let tenantID: String
    let chain: AppleTestChain
    let monthly: Plan
    let yearly: Plan
    let accounts = StubAccounts()
    let environment: Environment
    /// Seals the stores' secrets, as the server's `store-secret-key` does.
    let secrets = try! SecretBox(key: SystemRandom().bytes(32))

    static let monthlyProduct = "com.example.gatehouse.monthly"
    static let yearlyProduct = "com.example.gatehouse.year"
    static let creditsProduct = "com.example.gatehouse.credits100"

    /// - Parameter production: a production tenant that (through the engine's test hook) also
    ///   trusts the test chain, to reach production-only rules with test-signed data.
    ///   - google: where the engine reaches Google, over `http` (a stand-in's URLs over libcurl).
    init(
        _ kind: TestDatabaseKind, production: Bool = false, google: GoogleEndpoints = .live, http: any OutboundHTTP = UnimplementedOutboundHTTP()
    ) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, CoreMigrations.all + CommerceMigrations.all, clock: clock)
        let environment = Environment.test(database: store.database, clock: clock, http: http)
        self.environment = environment
        tenantID = try await TenantDirectory(environment: environment).createTenant(name: "Acme").id
        chain = try await Chains.get().main
        engine = CommerceEngine(
            environment: environment, accounts: accounts, secrets: secrets, google: google, productionTestRoots: production ? [chain.root] : [])
        var patch = AppleConfigPatch()
        patch.bundleId = bundleId
        patch.appAppleId = appAppleId
        patch.production = production
        patch.extraTrustedRootPEM = production ? .some(nil) : .some(chain.rootPEM)
        _ = try await engine.updateAppleConfig(tenantID: tenantID, patch)
        monthly = try await engine.createPlan(
            tenantID: tenantID, displayName: "Monthly", interval: .monthly, appleProductID: Self.monthlyProduct, gatedWorkflowID: "wf-1")
        yearly = try await engine.createPlan(
            tenantID: tenantID, displayName: "One year", interval: .oneTimeYear, appleProductID: Self.yearlyProduct, gatedWorkflowID: "wf-1")
        _ = try await engine.setCreditPackages(
            tenantID: tenantID, provider: "apple",
            [CreditPackage(provider: "apple", platformProductId: Self.creditsProduct, credits: 100, displayName: nil)])
    }

    func close() { store.close() }

    /// Milliseconds since 1970 of the clock moved by `days`.
    func ms(days: Double = 0) -> Int64 { Int64((clock.now.timeIntervalSince1970 + days * 86_400) * 1000) }

    /// A signed subscription transaction of `product`, bought now and expiring in `expiresInDays`.
    func subscription(
        _ transactionID: String, original: String = "3000000000000001", product: String = monthlyProduct, purchasedDaysAgo: Double = 0,
        expiresInDays: Double = 30, extra: [String: Any] = [:]
    ) throws -> (payload: [String: Any], jws: String) {
        var payload: [String: Any] = [
            "transactionId": transactionID, "originalTransactionId": original, "productId": product, "bundleId": bundleId,
            "environment": "Sandbox", "type": product == Self.yearlyProduct ? "Non-Renewing Subscription" : "Auto-Renewable Subscription",
            "inAppOwnershipType": "PURCHASED", "purchaseDate": ms(days: -purchasedDaysAgo), "signedDate": nowMilliseconds(),
        ]
        if product != Self.yearlyProduct { payload["expiresDate"] = ms(days: expiresInDays - purchasedDaysAgo) }
        for (key, value) in extra { payload[key] = value }
        return (payload, try chain.sign(payload: payload))
    }

    /// Reports a signed transaction through verify-purchase as `account`.
    func report(_ jws: String, id: String, product: String = monthlyProduct, account: String, transfer: Bool = false) async throws -> PurchaseOutcome {
        try await engine.verifyPurchase(
            tenantID: tenantID, accountID: account,
            PurchaseReport(platform: "apple", platformProductId: product, transactionId: id, signedTransaction: jws, transferToCurrentAccount: transfer))
    }

    /// A signed notification about `transaction`, signed at `signedAt` (ms; the chain's validity is checked at real time).
    func notification(
        _ type: String, subtype: String? = nil, uuid: String = UUID().uuidString, transaction: String?, renewal: [String: Any]? = nil,
        signedAt: Int64? = nil
    ) throws -> String {
        var data: [String: Any] = ["bundleId": bundleId, "appAppleId": appAppleId, "environment": "Sandbox"]
        if let transaction { data["signedTransactionInfo"] = transaction }
        if let renewal {
            var info: [String: Any] = ["originalTransactionId": "3000000000000001", "environment": "Sandbox", "signedDate": nowMilliseconds()]
            for (key, value) in renewal { info[key] = value }
            data["signedRenewalInfo"] = try chain.sign(payload: info)
        }
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": signedAt ?? nowMilliseconds(), "data": data,
        ]
        if let subtype { payload["subtype"] = subtype }
        return try chain.sign(payload: payload)
    }

    func status(_ account: String) async throws -> EntitlementState.Status {
        try await engine.entitlementSummary(tenantID: tenantID, accountID: account).entitlement.state.status
    }
}

/// Account relations the tests decide.
final class StubAccounts: AccountDirectory, @unchecked Sendable {
    private let lock = NSLock()
    private var relations: [String: AccountRelation] = [:]
    private var existing: Set<String> = []

    /// Makes `id` a live account of the tenant.
    func add(_ id: String) { _ = lock.withLock { existing.insert(id) } }

    func accountExists(tenantID: String, accountID: String) async throws -> Bool {
        lock.withLock { existing.contains(accountID) }
    }

    func set(_ relation: AccountRelation, holder: String, reporter: String) {
        lock.withLock { relations[holder + ">" + reporter] = relation }
    }

    func relation(tenantID: String, holder: String, reporter: String) async throws -> AccountRelation {
        lock.withLock { relations[holder + ">" + reporter] ?? .unrelated }
    }
}
