import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

@Suite struct AdminAPITests {
    func admin(_ live: LiveServer) -> APIClient {
        live.admin
    }

    @Test(arguments: TestDatabaseKind.available)
    func tenantApplicationAndKeyLifecycle(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = admin(live)
        let tenant = try await client.send("POST", "/admin/v1/tenants", body: AdminWire.CreateTenant(name: "Acme"), as: AdminWire.Tenant.self)
        #expect(tenant.name == "Acme" && !tenant.disabled)
        let app = try await client.send(
            "POST", "/admin/v1/tenants/\(tenant.id)/applications", body: AdminWire.CreateApplication(name: "iOS"), as: AdminWire.Application.self)
        #expect(app.tenantId == tenant.id)
        let issued = try await client.send(
            "POST", "/admin/v1/tenants/\(tenant.id)/keys", body: AdminWire.CreateKey(label: "prod", applicationId: app.id),
            as: AdminWire.IssuedKey.self)
        #expect(issued.secret.hasPrefix("ghk_") && issued.key.applicationId == app.id)

        let listed = try await client.sendRaw("GET", "/admin/v1/tenants/\(tenant.id)/keys")
        #expect(!String(decoding: listed, as: UTF8.self).contains(issued.secret.split(separator: ".")[1]))
        let keys = try JSONDecoder().decode(AdminWire.List<AdminWire.Key>.self, from: listed)
        #expect(keys.data == [issued.key])

        try await client.sendRaw("DELETE", "/admin/v1/tenants/\(tenant.id)/keys/\(issued.key.id)")
        let after = try await client.send("GET", "/admin/v1/tenants/\(tenant.id)/keys", as: AdminWire.List<AdminWire.Key>.self)
        #expect(after.data.first?.revoked == true)

        let all = try await client.send("GET", "/admin/v1/tenants", as: AdminWire.List<AdminWire.Tenant>.self)
        #expect(all.data.map(\.name) == ["Development", "Acme"])
        await live.stop()
    }

    @Test func literalJSONShapes() async throws {
        let live = try await LiveServer.start(inProcess: true)
        let client = admin(live)
        let data = try await client.sendRaw("POST", "/admin/v1/tenants", body: Data(#"{"name":"Shape"}"#.utf8))
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(Set(object.keys) == ["id", "name", "createdAt", "disabled"])
        #expect(object["name"] as? String == "Shape")
        #expect(object["disabled"] as? Bool == false)
        let created = try #require(object["createdAt"] as? String)
        #expect(created.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil)

        let missing = try await raw(live, "GET", "/admin/v1/tenants/00000000-0000-0000-0000-000000000000", token: live.credentials.adminToken)
        #expect(missing.status == 404)
        let envelope = try JSONSerialization.jsonObject(with: missing.body) as! [String: [String: String]]
        #expect(envelope["error"]?["code"] == "not_found")
        #expect(envelope["error"]?["message"] == "no such tenant")
        #expect(envelope["error"]?["requestId"] == missing.requestID)
        await live.stop()
    }

    @Test func hostileRequestsGetTheEnvelope() async throws {
        let live = try await LiveServer.start { $0.maxBodyBytes = 4096 }
        let token = live.credentials.adminToken
        let cases: [(String, String?, Data?, Int, String)] = [
            ("POST", nil, Data(#"{"name":"x"}"#.utf8), 401, "unauthorized"),
            ("POST", "gha_00000000000000000000000000000000.nope", Data(#"{"name":"x"}"#.utf8), 401, "unauthorized"),
            ("POST", live.credentials.apiKey, Data(#"{"name":"x"}"#.utf8), 401, "unauthorized"),
            ("POST", token, Data("{not json".utf8), 400, "invalid_body"),
            ("POST", token, Data("[1,2]".utf8), 400, "invalid_body"),
            ("POST", token, Data(#"{"name":42}"#.utf8), 400, "invalid_body"),
            ("POST", token, Data(#"{"name":"x","admin":true}"#.utf8), 400, "unknown_field"),
            ("POST", token, Data(#"{}"#.utf8), 400, "invalid_body"),
            ("POST", token, Data(#"{"name":""}"#.utf8), 400, "invalid_argument"),
            ("POST", token, Data(count: 5000), 413, "payload_too_large"),
            ("PUT", token, Data(#"{"name":"x"}"#.utf8), 405, "method_not_allowed"),
        ]
        for (method, bearer, body, status, code) in cases {
            let reply = try await raw(live, method, "/admin/v1/tenants", token: bearer, body: body)
            #expect(reply.status == status, "\(method) \(String(decoding: body ?? Data(), as: UTF8.self).prefix(30))")
            let envelope = try? JSONDecoder().decode(AdminWire.ErrorEnvelope.self, from: reply.body)
            #expect(envelope?.error.code == code)
        }
        // Nothing hostile created anything.
        let tenants = try await admin(live).send("GET", "/admin/v1/tenants", as: AdminWire.List<AdminWire.Tenant>.self)
        #expect(tenants.data.count == 1)

        // The SDK surfaces the envelope as a typed error.
        do {
            _ = try await APIClient(baseURL: live.baseURL).send("GET", "/admin/v1/tenants", as: AdminWire.List<AdminWire.Tenant>.self)
            Issue.record("expected an error")
        } catch let error as GatehouseClientError {
            #expect(error.code == .unauthorized)
        }
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentCreatesAllLand(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = admin(live)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    _ = try await client.send("POST", "/admin/v1/tenants", body: AdminWire.CreateTenant(name: "t\(index)"), as: AdminWire.Tenant.self)
                }
            }
            try await group.waitForAll()
        }
        let tenants = try await client.send("GET", "/admin/v1/tenants", as: AdminWire.List<AdminWire.Tenant>.self)
        #expect(tenants.data.count == 41)
        #expect(Set(tenants.data.map(\.id)).count == 41)
        await live.stop()
    }
}

/// A request outside the SDK, for hostile cases the SDK would never send.
func raw(_ live: LiveServer, _ method: String, _ path: String, token: String?, body: Data? = nil) async throws
    -> (status: Int, body: Data, requestID: String?)
{
    var request = URLRequest(url: live.baseURL.appendingPathComponent(path))
    request.httpMethod = method
    request.httpBody = body
    // URLSession would otherwise label the body application/x-www-form-urlencoded.
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let (data, response) = try await live.transport.send(request)
    return (response.statusCode, data, response.value(forHTTPHeaderField: "X-Request-Id"))
}
