import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SubscriptionFlow dialect over the live server (seed 003): backend token calls with a
/// server key, app calls with the account token pair, checked against the seed's JSON.
@Suite struct SubscriptionFlowTests {
    struct Reply {
        let status: Int
        let json: [String: Any]
        let body: Data
        let headers: [String: String]
    }

    static func call(_ store: StoreFixture, _ method: String, _ path: String, _ body: Any? = nil, headers: [String: String]) async throws -> Reply {
        var request = URLRequest(url: URL(string: store.live.credentials.baseURL + "/api/v1/mobile-stores" + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = try body as? Data ?? JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSessionTransport().send(request)
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return Reply(status: response.statusCode, json: (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:], body: data, headers: fields)
    }

    @Test(arguments: TestDatabaseKind.available)
    func tokensPurchasesAndEntitlements(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind) { $0.storeClientRequestsPerMinute = 8 }
        let serverKey = try await store.live.app.directory.issueKey(tenantID: store.live.credentials.tenantId, label: "backend").secret
        let backend = ["Authorization": "Bearer \(serverKey)"]

        // Issue: the seed's response, key for key.
        let issued = try await Self.call(store, "POST", "/account-tokens", ["customer_id": "9f1c2e0a-5b7d-4c1e-8a64-0d3b2f7a9e11"], headers: backend)
        #expect(issued.status == 201 && issued.json["status"] as? Bool == true)
        let data = try #require(issued.json["data"] as? [String: Any])
        #expect(Set(data.keys) == ["account_token", "customer_id", "created_at", "revoked_at", "client_secret", "reused"])
        #expect(data["revoked_at"] is NSNull && data["reused"] as? Bool == false && data["customer_id"] as? String == "9f1c2e0a-5b7d-4c1e-8a64-0d3b2f7a9e11")
        #expect((data["created_at"] as? String)?.hasSuffix("+00:00") == true)
        let token = try #require(data["account_token"] as? String)
        #expect(UUID(uuidString: token) != nil)
        let reused = try await Self.call(store, "POST", "/account-tokens", ["customer_id": "9f1c2e0a-5b7d-4c1e-8a64-0d3b2f7a9e11"], headers: backend)
        let reusedData = try #require(reused.json["data"] as? [String: Any])
        #expect(reused.status == 200 && reusedData["reused"] as? Bool == true && reusedData["account_token"] as? String == token)
        let secret = try #require(reusedData["client_secret"] as? String)
        let pair = ["X-SF-Account-Token": token, "X-SF-Client-Secret": secret]

        // Backend calls refuse app keys, no key and bad bodies.
        let appKey = ["Authorization": "Bearer \(store.live.credentials.apiKeys?["IOS"] ?? "")"]
        #expect(try await Self.call(store, "POST", "/account-tokens", ["customer_id": "x"], headers: appKey).status == 401)
        #expect(try await Self.call(store, "POST", "/account-tokens", ["customer_id": "x"], headers: [:]).status == 401)
        #expect(try await Self.call(store, "POST", "/account-tokens", Data("{".utf8), headers: backend).status == 400)
        #expect(try await Self.call(store, "POST", "/account-tokens", ["customer_id": 7], headers: backend).status == 400)
        #expect(try await Self.call(store, "POST", "/account-tokens", ["customer_id": "x", "extra": 1], headers: backend).status == 400)

        // The app reports a purchase tagged with its token: linked; the entitlements in the seed's shape.
        let tagged = try store.planTransaction("6000000000000001", original: "6000000000000001", extra: ["appAccountToken": token])
        let linked = try await Self.call(store, "POST", "/client/purchases", ["store": "apple", "signed_transaction": tagged], headers: pair)
        #expect(linked.status == 200 && (linked.json["data"] as? [String: Any])?["sandbox"] as? Bool == false)
        let entitlements = try await Self.call(store, "GET", "/client/entitlements", headers: pair)
        #expect(entitlements.status == 200 && entitlements.json["status"] as? Bool == true)
        let first = try #require((entitlements.json["data"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["key", "name", "source", "subscription_id", "expires_at", "grants"])
        #expect(first["key"] as? String == "wf-sec-001" && first["name"] as? String == "Monthly Protection" && first["source"] as? String == "AppStore")
        let grant = try #require((first["grants"] as? [[String: Any]])?.first)
        #expect(Set(grant.keys) == ["source", "subscription_id", "status", "expires_at"] && grant["status"] as? String == "Active")

        // Another customer's pair: 409 for the tagged purchase; one 422 body for every refusal.
        let other = try await Self.call(store, "POST", "/account-tokens", ["customer_id": "cus-other"], headers: backend)
        let otherData = try #require(other.json["data"] as? [String: Any])
        let otherPair = ["X-SF-Account-Token": otherData["account_token"] as! String, "X-SF-Client-Secret": otherData["client_secret"] as! String]
        #expect(try await Self.call(store, "POST", "/client/purchases", ["store": "apple", "signed_transaction": tagged], headers: otherPair).status == 409)
        let untagged = try store.planTransaction("6000000000000002", original: "6000000000000002")
        let refusedUntagged = try await Self.call(store, "POST", "/client/purchases", ["store": "apple", "signed_transaction": untagged], headers: otherPair)
        var forged = tagged
        forged.removeLast(4)
        forged += "AAAA"
        let refusedForged = try await Self.call(store, "POST", "/client/purchases", ["store": "apple", "signed_transaction": forged], headers: otherPair)
        #expect(refusedUntagged.status == 422 && refusedForged.status == 422 && refusedUntagged.body == refusedForged.body)

        // Wrong secret, revoked token: 401.
        #expect(try await Self.call(store, "GET", "/client/entitlements", headers: ["X-SF-Account-Token": token, "X-SF-Client-Secret": "wrong"]).status == 401)
        #expect(try await Self.call(store, "GET", "/client/entitlements", headers: [:]).status == 401)
        let revoked = try await Self.call(store, "POST", "/account-tokens/\(otherPair["X-SF-Account-Token"]!)/revoke", headers: backend)
        #expect(revoked.status == 200 && (revoked.json["data"] as? [String: Any])?["revoked_at"] is String)
        #expect(try await Self.call(store, "GET", "/client/entitlements", headers: otherPair).status == 401)

        // Rotation: a new token, the old one revoked; purchases tagged with the old one still come to this customer.
        let rotated = try await Self.call(store, "POST", "/account-tokens", ["customer_id": "cus-rotating"], headers: backend)
        let firstToken = try #require((rotated.json["data"] as? [String: Any])?["account_token"] as? String)
        let next = try await Self.call(store, "POST", "/account-tokens", ["customer_id": "cus-rotating", "rotate": true], headers: backend)
        let nextData = try #require(next.json["data"] as? [String: Any])
        #expect(next.status == 201 && nextData["reused"] as? Bool == false && nextData["account_token"] as? String != firstToken)
        let nextPair = ["X-SF-Account-Token": nextData["account_token"] as! String, "X-SF-Client-Secret": nextData["client_secret"] as! String]
        let oldTagged = try store.planTransaction("6000000000000003", original: "6000000000000003", extra: ["appAccountToken": firstToken])
        #expect(try await Self.call(store, "POST", "/client/purchases", ["store": "apple", "signed_transaction": oldTagged], headers: nextPair).status == 200)

        // Over the per-token limit: 429 with Retry-After.
        var last = try await Self.call(store, "GET", "/client/entitlements", headers: pair)
        for _ in 0..<8 where last.status == 200 { last = try await Self.call(store, "GET", "/client/entitlements", headers: pair) }
        #expect(last.status == 429 && Int(last.headers["retry-after"] ?? "") != nil)
        #expect(last.json["status"] as? Bool == false && last.json["code"] as? String == "RATE_LIMITED")

        // The backend registers an untagged purchase for its customer.
        let registered = try await Self.call(
            store, "POST", "/purchases", ["customer_id": "cus-web", "store": "apple", "signed_transaction": untagged], headers: backend)
        #expect(registered.status == 200)
        let backendView = try await Self.call(store, "GET", "/customers/cus-web/entitlements", headers: backend)
        #expect((backendView.json["data"] as? [[String: Any]])?.count == 1)
        await store.stop()
    }
}
