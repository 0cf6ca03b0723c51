import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A live server whose development tenant sells a monthly plan and a credit package, trusts a
/// test chain (non-production), and can be sent test-signed transactions and notifications.
struct StoreFixture {
    static let bundleID = "com.example.app"
    static let appAppleID: Int64 = 1_234_567_890
    static let monthly = "com.example.app.monthly"
    static let credits = "com.example.credits500"

    let live: LiveServer
    let client: DatacoveClient
    let chain: AppleTestChain
    let clock: ManualClock
    let planID: String

    /// `inProcess`: the server answers in process, nothing listening (see `LiveServer`).
    static func start(
        _ kind: TestDatabaseKind, trialDays: Int? = nil, inProcess: Bool = false, configure: (inout Settings) -> Void = { _ in }
    ) async throws -> StoreFixture {
        let clock = ManualClock(Date(timeIntervalSince1970: Double(Int64(Date().timeIntervalSince1970))))
        let live = try await LiveServer.start(kind, clock: clock, inProcess: inProcess, configure: configure)
        let client = DatacoveClient(live)
        let chain = try await AppleTestChain.generate()
        let admin = live.credentials.adminToken
        let base = "tenants/v1/\(live.credentials.tenantId)"
        let config = try await client.call(
            "PATCH", base + "/apple-config",
            ["bundleId": bundleID, "appAppleId": appAppleID, "production": false, "extraTrustedRootPEM": chain.rootPEM], token: admin)
        #expect(config.status == 200, "\(config.json)")
        _ = try await client.call("PUT", base + "/pricing-config",
                                  ["provider": "apple", "iapCreditPackages": [["platformProductId": credits, "credits": 500]]], token: admin)
        let plan = try await client.call(
            "POST", base + "/service-entitlement-products",
            ["displayName": "Monthly Protection", "interval": "monthly", "platformProductIds": ["apple": monthly], "gatedWorkflowId": "wf-sec-001"],
            token: admin)
        if let trialDays {
            _ = try await client.call("PATCH", base + "/trial-config", ["ios": ["enabled": true, "durationDays": trialDays]], token: admin)
        }
        return StoreFixture(live: live, client: client, chain: chain, clock: clock, planID: try #require(plan.json["productId"] as? String))
    }

    func stop() async { await live.stop() }

    /// Signs in (again: access tokens expire when tests move the clock by days) and returns the access token.
    func signIn(_ phone: String) async throws -> String {
        try #require(try await client.signIn(live, phone: phone)["accessToken"] as? String)
    }

    /// Milliseconds of the server clock moved by `days`.
    func ms(days: Double = 0) -> Int64 { Int64((clock.now.timeIntervalSince1970 + days * 86_400) * 1000) }

    /// A monthly-plan transaction bought now, expiring in `days`.
    func planTransaction(_ id: String, original: String, expiresInDays days: Double = 30, extra: [String: Any] = [:]) throws -> String {
        var payload: [String: Any] = [
            "transactionId": id, "originalTransactionId": original, "productId": Self.monthly, "bundleId": Self.bundleID,
            "environment": "Sandbox", "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "purchaseDate": ms(), "expiresDate": ms(days: days), "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
        ]
        for (key, value) in extra { payload[key] = value }
        return try chain.sign(payload: payload)
    }

    /// A credit-package transaction.
    func creditTransaction(_ id: String) throws -> String {
        try chain.sign(payload: [
            "transactionId": id, "originalTransactionId": id, "productId": Self.credits, "bundleId": Self.bundleID, "environment": "Sandbox",
            "type": "Consumable", "quantity": 1, "purchaseDate": ms(), "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
        ])
    }

    /// A signed Server Notification V2; `signedAt` orders notifications (ms, real time).
    func notification(_ type: String, subtype: String? = nil, uuid: String = UUID().uuidString, transaction: String?,
                      renewal: [String: Any]? = nil, signedAt: Int64? = nil, bundle: String = bundleID, signer: AppleTestChain? = nil) throws -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var data: [String: Any] = ["bundleId": bundle, "appAppleId": Self.appAppleID, "environment": "Sandbox"]
        if let transaction { data["signedTransactionInfo"] = transaction }
        if let renewal {
            var info: [String: Any] = ["environment": "Sandbox", "signedDate": now]
            for (key, value) in renewal { info[key] = value }
            data["signedRenewalInfo"] = try chain.sign(payload: info)
        }
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": signedAt ?? now, "data": data]
        if let subtype { payload["subtype"] = subtype }
        return try (signer ?? chain).sign(payload: payload)
    }

    /// POSTs to `/webhooks/apple` as Apple does.
    func deliver(_ signedPayload: String) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: URL(string: live.credentials.baseURL + "/webhooks/apple")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["signedPayload": signedPayload])
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSessionTransport().send(request)
        return (response.statusCode, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    func verifyPurchase(_ token: String, _ signed: String, id: String, product: String = monthly, transfer: Bool? = nil)
        async throws -> (status: Int, json: [String: Any], headers: [String: String])
    {
        var body: [String: Any] = ["platform": "apple", "platformProductId": product, "transactionId": id, "signedTransaction": signed]
        if let transfer { body["transferToCurrentAccount"] = transfer }
        return try await client.call("POST", "purchases/v1/verify-purchase", body, token: token)
    }

    func entitlement(_ token: String) async throws -> [String: Any] {
        try await client.call("GET", "purchases/v1/entitlement", token: token).json
    }
}
