import Foundation
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// DESIGN principle 9 for Datacove sessions and SubscriptionFlow account tokens: another
/// tenant's session, token or customer gets exactly the answer of one that does not exist,
/// and the probe changes nothing for its owner.
@Suite struct CrossTenantProbeTests {
    /// A second tenant on the same server, with an app key and a server key.
    struct OtherTenant {
        let id: String
        let appKey: String
        let serverKey: String

        init(_ live: LiveServer) async throws {
            id = try await live.app.directory.createTenant(name: "Other").id
            appKey = try await live.app.directory.issueKey(tenantID: id, label: "ios", platform: "IOS").secret
            serverKey = try await live.app.directory.issueKey(tenantID: id, label: "backend").secret
        }
    }

    /// The envelope without its per-request parts (timestamp, path), for comparing answers.
    static func stable(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> String {
        let error = reply.json["error"] as? [String: Any] ?? [:]
        return "\(reply.status) \(error["code"] ?? "-") \(error["message"] ?? "-")"
    }

    @Test(arguments: TestDatabaseKind.available)
    func anotherTenantsSessionIsOneThatDoesNotExist(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let other = try await OtherTenant(live)
        let mine = DatacoveClient(live)
        let theirs = DatacoveClient(live, apiKey: other.appKey)
        // The same person signs in to both tenants: two accounts that never meet.
        let myToken = try #require(try await mine.signIn(live, phone: "+14165550123")["accessToken"] as? String)
        let theirToken = try #require(try await theirs.signIn(live, phone: "+14165550123")["accessToken"] as? String)
        let mySessions = try await mine.call("GET", "auth/v1/sessions", token: myToken)
        let theirSessions = try await theirs.call("GET", "auth/v1/sessions", token: theirToken)
        let theirSession = try #require((theirSessions.json["data"] as? [[String: Any]])?.first?["id"] as? String)
        #expect((mySessions.json["data"] as? [[String: Any]])?.count == 1)
        #expect((mySessions.json["data"] as? [[String: Any]])?.first?["id"] as? String != theirSession)

        let probe = try await mine.call("DELETE", "auth/v1/sessions/\(theirSession)", token: myToken)
        let missing = try await mine.call("DELETE", "auth/v1/sessions/\(UUID().uuidString.lowercased())", token: myToken)
        #expect(Self.stable(probe) == Self.stable(missing))
        #expect(probe.status == 404 || probe.status == 401 || probe.status == 204, "\(probe.json)")
        // Their session is untouched by the probe.
        #expect(try await theirs.call("GET", "users/v1/profile", token: theirToken).status == 200)
        // A token of theirs read against my tenant's key changes nothing: tokens name their tenant.
        let profile = try await theirs.call("GET", "users/v1/profile", token: theirToken)
        #expect(profile.json["phone"] as? String == "14165550123")
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func anotherTenantsAccountTokenIsOneThatDoesNotExist(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind)
        let live = store.live
        let other = try await OtherTenant(live)
        let myKey = try await live.app.directory.issueKey(tenantID: live.credentials.tenantId, label: "backend").secret
        let mine = ["Authorization": "Bearer \(myKey)"]
        let theirs = ["Authorization": "Bearer \(other.serverKey)"]
        let issued = try await SubscriptionFlowTests.call(store, "POST", "/account-tokens", ["customer_id": "cust-1"], headers: mine)
        let data = try #require(issued.json["data"] as? [String: Any])
        let token = try #require(data["account_token"] as? String)
        let secret = try #require(data["client_secret"] as? String)

        // Revoking my token with their key reads like revoking a token nobody issued.
        let probe = try await SubscriptionFlowTests.call(store, "POST", "/account-tokens/\(token)/revoke", headers: theirs)
        let missing = try await SubscriptionFlowTests.call(store, "POST", "/account-tokens/\(UUID().uuidString.lowercased())/revoke", headers: theirs)
        #expect(probe.status == missing.status && probe.body == missing.body)
        #expect(probe.status == 404)
        // My customer's entitlements under their key are those of a customer they never had.
        let entitlements = try await SubscriptionFlowTests.call(store, "GET", "/customers/cust-1/entitlements", headers: theirs)
        let stranger = try await SubscriptionFlowTests.call(store, "GET", "/customers/cust-unknown/entitlements", headers: theirs)
        #expect(entitlements.status == stranger.status && entitlements.body == stranger.body)
        // Their token for the same customer id is a different one.
        let theirsIssued = try await SubscriptionFlowTests.call(store, "POST", "/account-tokens", ["customer_id": "cust-1"], headers: theirs)
        let theirData = try #require(theirsIssued.json["data"] as? [String: Any])
        #expect(theirData["account_token"] as? String != token)
        // My pair still works; my token with their secret is refused like a made-up pair.
        let pair = ["X-SF-Account-Token": token, "X-SF-Client-Secret": secret]
        #expect(try await SubscriptionFlowTests.call(store, "GET", "/client/entitlements", headers: pair).status == 200)
        let mixed = ["X-SF-Account-Token": token, "X-SF-Client-Secret": try #require(theirData["client_secret"] as? String)]
        let madeUp = ["X-SF-Account-Token": UUID().uuidString.lowercased(), "X-SF-Client-Secret": secret]
        let mixedReply = try await SubscriptionFlowTests.call(store, "GET", "/client/entitlements", headers: mixed)
        let madeUpReply = try await SubscriptionFlowTests.call(store, "GET", "/client/entitlements", headers: madeUp)
        #expect(mixedReply.status == 401 && mixedReply.body == madeUpReply.body)
        await live.stop()
    }
}

extension DatacoveClient {
    /// A client of the same server with another tenant's app key.
    init(_ live: LiveServer, apiKey: String) {
        base = live.credentials.baseURL + "/api/"
        self.apiKey = apiKey
        transport = live.transport
    }
}
