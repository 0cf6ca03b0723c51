import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseClientCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

@Suite struct SystemEndpointTests {
    @Test(arguments: TestDatabaseKind.available)
    func healthReadinessAndMetrics(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind)
        let client = APIClient(baseURL: live.baseURL)
        #expect(String(decoding: try await client.sendRaw("GET", "/healthz"), as: UTF8.self) == #"{"status":"ok"}"#)
        #expect(String(decoding: try await client.sendRaw("GET", "/readyz"), as: UTF8.self) == #"{"status":"ready"}"#)
        let metrics = String(decoding: try await client.sendRaw("GET", "/metrics"), as: UTF8.self)
        #expect(metrics.contains(#"gatehouse_http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
        #expect(metrics.contains("# TYPE gatehouse_http_request_duration_seconds histogram"))

        // With the database gone, the process is healthy but not ready.
        live.app.environment.database.close()
        #expect(try await raw(live, "GET", "/healthz", token: nil).status == 200)
        #expect(try await raw(live, "GET", "/readyz", token: nil).status == 503)
        await live.stop()
    }

    /// `/metrics` names tenants and APIs: in production the public listener serves it only
    /// behind its token, and a listener of its own takes it off the public one.
    @Test func productionKeepsMetricsOffThePublicListener() async throws {
        let bare = try await LiveServer.start { $0.mode = .production }
        let refused = try await raw(bare, "GET", "/metrics", token: nil)
        #expect(refused.status == 404)
        #expect(try JSONDecoder().decode(AdminEnvelope.self, from: refused.body).error.code == "not_found")
        #expect(bare.app.metricsServer == nil)
        #expect(bare.logs.lines.contains { $0.contains("/metrics is not served") })
        await bare.stop()

        let split = try await LiveServer.start {
            $0.mode = .production
            $0.metricsPort = 0
        }
        #expect(try await raw(split, "GET", "/metrics", token: nil).status == 404)
        let own = try #require(split.app.metricsServer)
        _ = try await raw(split, "GET", "/healthz", token: nil)
        let scraped = try #require(await Self.get(port: own.port, "/metrics"))
        #expect(scraped.status == 200 && scraped.headers["content-type"] == "text/plain; version=0.0.4")
        #expect(String(decoding: scraped.body, as: UTF8.self).contains(#"gatehouse_http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
        // That listener serves nothing else.
        #expect(await Self.get(port: own.port, "/healthz")?.status == 404)
        await split.stop()
    }

    @Test func theMetricsTokenIsAskedForWhereverMetricsAreServed() async throws {
        let guarded = try await LiveServer.start {
            $0.mode = .production
            $0.metricsToken = "scrape-secret"
        }
        let missing = try await raw(guarded, "GET", "/metrics", token: nil)
        #expect(missing.status == 401)
        #expect(try JSONDecoder().decode(AdminEnvelope.self, from: missing.body).error.code == "unauthorized")
        for wrong in ["scrape-secreT", "scrape-secret-", "scrape", guarded.credentials.adminToken] {
            #expect(try await raw(guarded, "GET", "/metrics", token: wrong).status == 401, "\(wrong)")
        }
        #expect(try await raw(guarded, "GET", "/metrics", token: "scrape-secret").status == 200)
        await guarded.stop()

        // On a listener of its own too; and in development a metrics port moves it off the public one.
        let split = try await LiveServer.start {
            $0.metricsPort = 0
            $0.metricsToken = "scrape-secret"
        }
        #expect(try await raw(split, "GET", "/metrics", token: "scrape-secret").status == 404)
        let port = try #require(split.app.metricsServer).port
        #expect(await Self.get(port: port, "/metrics")?.status == 401)
        #expect(await Self.get(port: port, "/metrics", token: "nope")?.status == 401)
        #expect(await Self.get(port: port, "/metrics", token: "scrape-secret")?.status == 200)
        await split.stop()
    }

    private struct AdminEnvelope: Decodable {
        struct Body: Decodable { let code: String }
        let error: Body
    }

    private static func get(port: UInt16, _ path: String, token: String? = nil) async -> (status: Int, headers: [String: String], body: Data)? {
        guard let connection = try? RawConnection(port: port) else { return nil }
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return await connection.exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)\r\n")
    }

    @Test func developmentCredentialsFile() async throws {
        let live = try await LiveServer.start()
        let path = live.app.credentialsPath
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        #expect(Set(json.keys) == ["baseURL", "adminToken", "tenantId", "applicationId", "apiKey", "verification", "apiKeys", "possession"])
        #expect(Set((json["apiKeys"] as? [String: String] ?? [:]).keys) == ["IOS", "ANDROID", "WEB"])
        #expect(json["baseURL"] as? String == "http://127.0.0.1:\(live.port)")
        #expect(try await live.app.directory.authenticate(apiKey: json["apiKey"] as! String)?.tenantId == json["tenantId"] as? String)
        let verification = try #require(json["verification"] as? [String: String])
        #expect(Set(verification.keys) == ["appKey", "secret"])
        // A second bootstrap on the same database reuses the file instead of minting new keys.
        #expect(try await live.app.bootstrapDevelopment() == live.credentials)
        // The access log names routes and never carries the admin token.
        #expect(!live.logs.lines.joined().contains(live.credentials.adminToken))
        await live.stop()
    }

    /// A development server started again on another port writes that port into the file and
    /// into its `server-health` definition; the keys stay the first start's.
    @Test func developmentCredentialsFollowTheLatestStart() async throws {
        let folder = NSTemporaryDirectory() + "gatehouse-restart-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let configure: (inout Settings) -> Void = {
            $0.dataDir = folder
            $0.databaseURL = ""
        }
        let first = try await LiveServer.start(configure: configure)
        // Still listening, so the second start cannot be given the same port.
        let second = try await LiveServer.start(configure: configure)
        #expect(first.port != second.port)
        let expected = "http://127.0.0.1:\(second.port)"
        let file = try JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: URL(fileURLWithPath: second.app.credentialsPath)))
        #expect(file.baseURL == expected && second.credentials == file)
        #expect(file.adminToken == first.credentials.adminToken && file.apiKey == first.credentials.apiKey && file.apiKeys == first.credentials.apiKeys)
        let health = try await second.app.managedAPIs.definition(tenantID: file.tenantId, name: "server-health")
        #expect(health.baseURL.absoluteString == expected)
        #expect(try Self.mode(second.app.credentialsPath) == 0o600)

        // A server-health the developer pointed elsewhere keeps its address.
        var moved = health
        moved.baseURL = URL(string: "http://127.0.0.1:9/elsewhere")!
        try await second.app.managedAPIs.saveDefinition(tenantID: file.tenantId, moved)
        await first.stop()
        let third = try await LiveServer.start(configure: configure)
        #expect(third.credentials.baseURL == "http://127.0.0.1:\(third.port)")
        #expect(try await third.app.managedAPIs.definition(tenantID: file.tenantId, name: "server-health").baseURL == moved.baseURL)
        await second.stop()
        await third.stop()
        for live in [first, second, third] { live.app.environment.database.close() }
    }

    private static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test func settingsFromEnvironmentAndFlags() throws {
        let settings = try Settings.load(
            environment: ["GATEHOUSE_PORT": "9000", "GATEHOUSE_DATA_DIR": "/srv/gh", "HOME": "/root", "GATEHOUSE_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"],
            arguments: ["--port", "9100", "--database-url=postgres://u@h/db", "--mode", "production"])
        #expect(settings.port == 9100)
        #expect(settings.dataDir == "/srv/gh")
        #expect(settings.isPostgres)
        #expect(settings.mode == .production)
        #expect(settings.trustedProxies == ["10.0.0.0/8", "127.0.0.1"])
        #expect(Settings().sqlitePath == "./data/gatehouse.sqlite")
        #expect(try Settings.load(environment: ["GATEHOUSE_URL": "http://x", "GATEHOUSE_PORT": "1"], arguments: []).port == 1)
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--portt", "1"]) }
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--port", "http"]) }
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--mode"]) }
    }
}
