import Foundation
import Testing
@testable import GatehouseHTTP

@Suite struct ObservabilityTests {
    @Test func trustedProxyResolution() {
        let resolver = ClientAddressResolver(trustedProxies: ["10.0.0.0/8", "::1"])
        #expect(resolver.resolve(peer: "203.0.113.9", forwardedFor: "1.2.3.4") == "203.0.113.9")
        #expect(resolver.resolve(peer: "10.1.2.3", forwardedFor: "1.2.3.4") == "1.2.3.4")
        #expect(resolver.resolve(peer: "10.1.2.3", forwardedFor: "6.6.6.6, 1.2.3.4, 10.9.9.9") == "1.2.3.4")
        #expect(resolver.resolve(peer: "::1", forwardedFor: "2001:db8::1") == "2001:db8::1")
        #expect(resolver.resolve(peer: "10.1.2.3", forwardedFor: "not-an-ip") == "10.1.2.3")
        #expect(resolver.resolve(peer: "10.1.2.3", forwardedFor: nil) == "10.1.2.3")
        #expect(ClientAddressResolver(trustedProxies: []).resolve(peer: "10.1.2.3", forwardedFor: "1.2.3.4") == "10.1.2.3")
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedPeers() async throws {
        let routes: (Router) -> Void = { $0.get("/ip", .inline { _, ctx in .text(ctx.clientAddress) }) }
        let trusting = try TestServer(configure: { $0.trustedProxies = ["127.0.0.1"] }, routes: routes)
        defer { trusting.stop() }
        #expect(String(decoding: try await trusting.get("/ip", headers: ["X-Forwarded-For": "198.51.100.7"]).2, as: UTF8.self) == "198.51.100.7")
        let plain = try TestServer(routes: routes)
        defer { plain.stop() }
        #expect(String(decoding: try await plain.get("/ip", headers: ["X-Forwarded-For": "198.51.100.7"]).2, as: UTF8.self) == "127.0.0.1")
    }

    @Test func accessLogIsJSONWithTemplateNotValues() async throws {
        let test = try TestServer { $0.get("/users/:id", .inline { _, _ in .text("x") }) }
        defer { test.stop() }
        _ = try await test.get("/users/secret-4242?token=abc")
        let line = try #require(await test.log.atLeast(1).first)
        let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        #expect(json["route"] as? String == "/users/:id")
        #expect(json["method"] as? String == "GET")
        #expect(json["status"] as? Int == 200)
        #expect(json["requestId"] is String)
        #expect(json["ms"] is Double || json["ms"] is Int)
        #expect(!line.contains("secret") && !line.contains("abc"))
    }

    @Test func metricsCountByRouteAndStatus() async throws {
        let test = try TestServer { $0.get("/a/:id", .inline { _, _ in .text("x") }) }
        defer { test.stop() }
        _ = try await test.get("/a/1")
        _ = try await test.get("/a/2")
        _ = try await test.get("/zzz")
        let text = test.server.metrics.render()
        #expect(text.contains(#"gatehouse_http_requests_total{method="GET",route="/a/:id",status="200"} 2"#))
        #expect(text.contains(#"gatehouse_http_requests_total{method="GET",route="(unmatched)",status="404"} 1"#))
        #expect(text.contains(#"gatehouse_http_request_duration_seconds_bucket{method="GET",route="/a/:id",status="200",le="+Inf"} 2"#))
    }
}
