import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import Testing
import GatehouseFormats

/// What the server really answers, against the documents: every GET of the admin API and of
/// the store setup on the development tenant's own objects validates against its 200 schema.
@Suite struct OpenAPIAnswerTests {
    @Test(arguments: TestDatabaseKind.available)
    func adminAndStoreReadsMatchTheirSchemas(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let admin = live.credentials.adminToken
        let tenant = live.credentials.tenantId
        let apps = try JSONDecoder().decode(JSONValue.self, from: try await send(live, "/admin/v1/tenants/\(tenant)/otp-applications", token: admin).body)
        let values = [
            "tenantId": tenant, "appId": apps.object?["data"]?.array?.first?.object?["id"]?.string ?? "", "workflowId": "wf-url-001",
            "name": "server-health",
        ]
        // Until they are set, the tenant's store configurations are not found.
        #expect(try await send(live, "/api/tenants/v1/\(tenant)/apple-config", token: admin, method: "PATCH", body: #"{"bundleId":"com.example.app"}"#).status == 200)
        #expect(try await send(
            live, "/api/tenants/v1/\(tenant)/google-play-config", token: admin, method: "PATCH", body: #"{"packageName":"com.example.app"}"#).status == 200)
        #expect(try await send(live, "/api/tenants/v1/\(tenant)/passkey-config", token: admin, method: "PUT",
            body: #"{"rpId":"id.example.com","rpName":"Example","origins":["https://id.example.com"],"iosAppIds":[],"enabled":true}"#).status == 200)
        var checked: [String] = []
        for name in ["admin", "datacove"] {
            let document = try JSONDecoder().decode(JSONValue.self, from: try await send(live, "/openapi/\(name).json", token: nil).body)
            let check = JSONSchemaCheck(document: document)
            for (template, item) in document.object?["paths"]?.object ?? [:] {
                guard let operation = item.object?["get"]?.object, template.hasPrefix("/admin/") || template.hasPrefix("/api/tenants/") else { continue }
                var path = template
                for (parameter, value) in values { path = path.replacingOccurrences(of: "{\(parameter)}", with: value) }
                guard !path.contains("{") else { continue }
                if template.hasSuffix("/outbox") { path += "?to=14155550123" }
                let answer = try await send(live, path, token: admin)
                #expect(answer.status == 200, "GET \(path)")
                let schema = operation["responses"]?.object?["200"]?.object?["content"]?.object?["application/json"]?.object?["schema"] ?? .null
                #expect(check.problems(try JSONDecoder().decode(JSONValue.self, from: answer.body), schema) == [], "GET \(template)")
                checked.append(template)
            }
        }
        #expect(checked.count >= 18, "\(checked.sorted())")
        await live.stop()
    }

    private func send(_ live: LiveServer, _ path: String, token: String?, method: String = "GET", body: String? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: live.baseURL.absoluteString + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await live.transport.send(request)
        return (response.statusCode, data)
    }
}
