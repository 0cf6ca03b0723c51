import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Bodies refused at the edge (too deep, a member named twice, not JSON) answer in each
/// dialect's own envelope, and reach no handler.
@Suite struct EdgeEnvelopeTests {
    static func send(_ live: LiveServer, _ method: String, _ path: String, _ body: Data, type: String = "application/json",
                     headers: [String: String] = [:]) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: URL(string: live.credentials.baseURL + path)!)
        request.httpMethod = method
        request.httpBody = body
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSessionTransport().send(request)
        return (response.statusCode, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    /// The unauthenticated attack of the issue: a megabyte nested 200 000 deep.
    static let deep: Data = {
        var text = #"{"signedPayload":"x","a":"#
        while text.utf8.count < 1_000_000 { text += #"{"a":"# }
        return Data(text.utf8)
    }()

    static func datacoveCode(_ json: [String: Any]) -> String? { (json["error"] as? [String: Any])?["code"] as? String }
    static func gatehouseCode(_ json: [String: Any]) -> String? { (json["error"] as? [String: Any])?["code"] as? String }
    static func didwwCodes(_ json: [String: Any]) -> [String] { (json["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? [] }

    @Test func everyDialectAnswersInItsEnvelope() async throws {
        let live = try await LiveServer.start { $0.maxBodyBytes = 2 << 20 }
        let admin = ["Authorization": "Bearer \(live.credentials.adminToken)"]
        let appKey = ["x-api-key": live.credentials.apiKey]
        let tenant = "/admin/v1/tenants/\(live.credentials.tenantId)"
        let app = try await APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)").send(
            "POST", tenant + "/otp-applications", body: RawJSON(Data(#"{"name":"edge","minimumAuth":"public"}"#.utf8)),
            as: AdminWire.CreatedOTPApplication.self)
        let didww = ["Authorization": "Application \(app.application.appKey)"]

        // Datacove: the webhook (no credentials at all) and sign-in (only the app key).
        for (path, headers) in [("/webhooks/apple", [String: String]()), ("/api/auth/v1/mobile/request-otp", appKey)] {
            let deep = try await Self.send(live, "POST", path, Self.deep, headers: headers)
            #expect(deep.status == 400 && Self.datacoveCode(deep.json) == "VALIDATION_FAILED" && deep.json["path"] as? String == path)
            let twice = try await Self.send(live, "POST", path, Data(#"{"phoneNumber":"+14165550199","phoneNumber":"+14165550100"}"#.utf8), headers: headers)
            #expect(twice.status == 400 && Self.datacoveCode(twice.json) == "VALIDATION_FAILED")
            let plain = try await Self.send(live, "POST", path, Data(#"{"phoneNumber":"+14165550199"}"#.utf8), type: "text/plain", headers: headers)
            #expect(plain.status == 415 && Self.datacoveCode(plain.json) == "UNSUPPORTED_MEDIA_TYPE")
        }
        // Gatehouse's own admin API.
        let patch = try await Self.send(live, "PATCH", tenant + "/otp-applications/\(app.application.id)", Self.deep, headers: admin)
        #expect(patch.status == 400 && Self.gatehouseCode(patch.json) == "invalid_body")
        let twice = try await Self.send(live, "POST", "/admin/v1/tenants", Data(#"{"name":"first","name":"second"}"#.utf8), headers: admin)
        #expect(twice.status == 400 && Self.gatehouseCode(twice.json) == "duplicate_field")
        let tenants = try await APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
            .send("GET", "/admin/v1/tenants", as: AdminWire.List<AdminWire.Tenant>.self)
        #expect(tenants.data.map(\.name).allSatisfy { $0 != "first" && $0 != "second" })
        // DIDWW: not JSON is its parameter_missing; a field refused is its 422 validation_failed.
        let start = "/api/v1/verifications"
        let deepStart = try await Self.send(live, "POST", start, Self.deep, headers: didww)
        #expect(deepStart.status == 400 && Self.didwwCodes(deepStart.json) == ["parameter_missing"])
        let duplicated = try await Self.send(
            live, "POST", start, Data(#"{"data":{"destination":"+14165550199","delivery_method":"sms","delivery_method":"voice"}}"#.utf8), headers: didww)
        #expect(duplicated.status == 422 && Self.didwwCodes(duplicated.json) == ["validation_failed"])
        let plainStart = try await Self.send(
            live, "POST", start, Data(#"{"data":{"destination":"+14165550199","delivery_method":"sms"}}"#.utf8), type: "text/plain", headers: didww)
        #expect(plainStart.status == 415 && Self.didwwCodes(plainStart.json) == ["validation_failed"])
        // SubscriptionFlow.
        let serverKey = try await live.app.directory.issueKey(tenantID: live.credentials.tenantId, label: "backend").secret
        let tokens = try await Self.send(
            live, "POST", "/api/v1/mobile-stores/account-tokens", Data(#"{"customer_id":"a","customer_id":"b"}"#.utf8),
            headers: ["Authorization": "Bearer \(serverKey)"])
        #expect(tokens.status == 400 && tokens.json["status"] as? Bool == false && tokens.json["code"] as? String == "VALIDATION_FAILED")
        await live.stop()
    }

    /// The plan DELETE goes through the store's one error mapping: a failure that is not the
    /// engine's own is a 500 in the Datacove envelope, logged, not Gatehouse's envelope.
    @Test(arguments: TestDatabaseKind.available)
    func planDeleteAnswersInTheDatacoveEnvelope(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind)
        let base = "tenants/v1/\(store.live.credentials.tenantId)/service-entitlement-products/"
        let admin = store.live.credentials.adminToken
        let missing = try await store.client.call("DELETE", base + "no-such-plan", token: admin)
        #expect(missing.status == 404 && (missing.json["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
        #expect(missing.json["path"] as? String == "/api/" + base + "no-such-plan")
        try await store.live.app.environment.database.write { try $0.execute("DROP TABLE commerce_plans") }
        let broken = try await store.client.call("DELETE", base + store.planID, token: admin)
        #expect(broken.status == 500)
        #expect((broken.json["error"] as? [String: Any])?["code"] as? String == "INTERNAL_ERROR")
        #expect(broken.json["statusCode"] as? Int == 500)
        #expect(store.live.logs.lines.contains { $0.contains("datacove API error") })
        await store.stop()
    }
}
