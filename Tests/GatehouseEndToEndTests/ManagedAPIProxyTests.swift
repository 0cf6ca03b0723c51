import Foundation
import GatehouseClientCore
import GatehouseManagedAPI
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Proxied managed APIs through `GatehouseManagedAPI`: the server adds each kind of credential
/// (checked by the provider's real API), which never reaches the device, a log or the database in clear.
// One at a time, like ManagedAPIOAuthTests: each test starts its own provider process.
@Suite(.serialized) struct ManagedAPIProxyTests {
    typealias Wire = AdminWire.ManagedAPIDefinition

    func json(_ response: ManagedApiFetchResponse) throws -> [String: Any] {
        try #require(response.body as? [String: Any], "\(response.rawBody ?? "")")
    }

    @Test(arguments: TestDatabaseKind.available)
    func eachStaticCredentialIsAddedByTheServerAndNeverSeenByTheDevice(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind)
        do {
            let p = OAuthTestProvider.self
            try await f.proxied("basic", path: "/static/basic", authType: "BASIC", basic: .init(username: p.basicUser, password: p.basicPassword))
            try await f.proxied("bearer", path: "/static/bearer", authType: "BEARER_TOKEN", bearerToken: p.staticBearer)
            try await f.proxied("header", path: "/static/key-header", authType: "API_KEY", apiKey: .init(placement: "header", name: "X-API-Key", value: p.apiKey))
            try await f.proxied("query", path: "/static/key-query", authType: "API_KEY", apiKey: .init(placement: "query", name: "api_key", value: p.apiKey))
            let service = f.service()
            let expected = ["basic": "basic", "bearer": "bearer", "header": "api_key_header", "query": "api_key_query"]
            for (name, credential) in expected.sorted(by: { $0.key < $1.key }) {
                let options = ManagedApiFetchOptions(method: "POST", headers: ["Content-Type": "text/plain", "Cookie": "gatehouse=1", "X-Trace": "t-1"], body: "héllo")
                let response = try await service.fetch(name: name, relativeUrl: "/things/42?limit=5&api_key=device-guess", options: options)
                #expect(response.status == 200, "\(name): \(response.rawBody ?? "")")
                let body = try json(response)
                #expect(body["credential"] as? String == credential)
                #expect(body["body"] as? String == "héllo")
                #expect(body["method"] as? String == "POST")
                let echo = try #require(try await f.provider.stats().lastAPIRequest)
                #expect(echo.path.hasSuffix("/things/42"))
                // The caller's session, cookies and guessed key stay behind; its own headers go through.
                #expect(echo.headers["cookie"] == nil)
                #expect(echo.headers["x-trace"] == "t-1")
                let session = try await f.base.auth.session.validAccessToken()
                #expect(!(echo.headers["authorization"] ?? "").contains(session))
                #expect(echo.query.contains("device-guess") == (name != "query"))
                #expect(echo.query.contains("limit=5"))
                #expect(!response.rawBody!.contains(p.apiKey) && !response.rawBody!.contains(p.staticBearer) && !response.rawBody!.contains(p.basicPassword))
            }
            // An upstream's redirect that repeats the query key has it taken out, in the header and the page.
            let redirected = try await service.fetch(name: "query", relativeUrl: "")
            #expect(redirected.status == 308, "\(redirected.status)")
            #expect(redirected.header("Location")?.contains("api_key=[redacted]") == true, "\(redirected.header("Location") ?? "")")
            // (URLSession on Linux drops a declined redirect's page, so the page is read raw.)
            let page = try await f.rawProxyText("/api/managed-apis/v1/query/proxy")
            #expect(page.contains("308") && page.contains("api_key=[redacted]") && !page.contains(p.apiKey), "\(page)")
            // The definitions the device reads carry no secret either.
            let listed = try await f.base.raw("GET", "managed-apis/v1")
            let text = String(decoding: listed.data, as: UTF8.self)
            for secret in [p.apiKey, p.staticBearer, p.basicPassword, "api_key", "X-API-Key", p.basicUser] { #expect(!text.contains(secret), "\(secret)") }
            let kept = try await f.everythingKept()
            for secret in [p.apiKey, p.staticBearer, p.basicPassword] { #expect(!kept.contains(secret), "\(secret) is kept in clear") }
            // Nor does the operator API give a secret back.
            let read = try await f.base.admin.send("GET", "/admin/v1/tenants/\(f.tenant)/managed-apis/basic", as: Wire.self)
            #expect(read.basic == .init(username: p.basicUser, password: nil))
            #expect(read.hasSecret == true)
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func clientCredentialsAreHeldAndRenewedByTheServer(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind)
        do {
            try await f.proxied(
                "reports", path: "/api", authType: "OAUTH2",
                oauth2: .init(
                    grant: "client_credentials", tokenEndpoint: f.provider.tokenEndpoint.absoluteString, clientId: OAuthTestProvider.confidentialClientID,
                    clientSecret: OAuthTestProvider.confidentialClientSecret, scopes: ["read"]))
            let service = f.service()
            let responses = try await withThrowingTaskGroup(of: ManagedApiFetchResponse.self) { group in
                for index in 0..<6 { group.addTask { try await service.fetch(name: "reports", relativeUrl: "/daily/\(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.status == 200 })
            #expect(try json(responses[0])["client_id"] as? String == OAuthTestProvider.confidentialClientID)
            #expect(try await f.provider.stats().tokenRequests.clientCredentials == 1)
            // The API refuses the token once: the server retires it, fetches another and retries.
            try await f.provider.failNextAPI(count: 1)
            #expect(try await service.fetch(name: "reports", relativeUrl: "/daily").status == 200)
            #expect(try await f.provider.stats().tokenRequests.clientCredentials == 2)
            // The upstream's own 403 comes back as it came.
            let forbidden = try await service.fetch(name: "reports", relativeUrl: "/admin/users")
            #expect(forbidden.status == 403)
            #expect(forbidden.header("WWW-Authenticate")?.contains("insufficient_scope") == true)
            #expect(try await f.provider.stats().tokenRequests.clientCredentials == 2)
            #expect(try await !f.everythingKept().contains(OAuthTestProvider.confidentialClientSecret))
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func theUpstreamsAnswerComesBackAsItCameAndGatehousesOwnRefusalsAreMarked(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind) { $0.managedApiRatePerMinute = 10 }
        do {
            try await f.proxied("open", path: "/open-special")
            let service = f.service()
            let upstream401 = try await service.fetch(name: "open", relativeUrl: "/status/401")
            #expect(upstream401.status == 401)
            #expect(upstream401.header("X-Upstream-Marker") == "yes")
            #expect(upstream401.header(ManagedAPIWire.originHeader) == nil)
            // An upstream cannot pass for Gatehouse: its marker is dropped, so its 401 is a response.
            let impersonating = try await service.fetch(name: "open", relativeUrl: "/impersonate")
            #expect(impersonating.status == 401)
            #expect(impersonating.header(ManagedAPIWire.originHeader) == nil)
            let cookies = try await service.fetch(name: "open", relativeUrl: "/set-cookie")
            #expect(cookies.status == 200)
            #expect(cookies.header("Set-Cookie") == nil)
            #expect(cookies.header("X-Hop") == nil)
            // Headers that would speak for Gatehouse's whole origin stay behind too.
            for name in ["Strict-Transport-Security", "Access-Control-Allow-Origin", "Alt-Svc"] { #expect(cookies.header(name) == nil, "\(name)") }
            // A HEAD gets no body; a GET cannot carry one (sent raw: URLSession would not send it).
            let head = try await service.fetch(name: "open", relativeUrl: "/status/200", options: ManagedApiFetchOptions(method: "HEAD"))
            #expect(head.status == 200 && head.data.isEmpty)
            let withBody = try await f.rawProxy("/api/managed-apis/v1/open/proxy/status/200", headers: ["Content-Length: 1"], body: "x")
            #expect(withBody.status == 400 && withBody.headers[ManagedAPIWire.originHeader.lowercased()] == "BODY_NOT_ALLOWED")
            let redirect = try await service.fetch(name: "open", relativeUrl: "/redirect")
            #expect(redirect.status == 302)
            #expect(try json(try await service.fetch(name: "open", relativeUrl: "/status/200"))["status"] as? Int == 200)

            // Gatehouse's own 401 (no session) and 429 are marked, and the SDK reports them as errors.
            let anonymous = try await URLSessionTransport().send(URLRequest(url: f.api.appendingPathComponent("managed-apis/v1/open/proxy/status/200")))
            #expect(anonymous.1.statusCode == 401)
            #expect(anonymous.1.value(forHTTPHeaderField: ManagedAPIWire.originHeader) == "TOKEN_INVALID")
            // The limit counts in fixed minutes: 25 calls put more than 10 into one of them.
            await #expect(throws: ManagedAPIException.self) {
                for _ in 0..<25 { _ = try await service.fetch(name: "open", relativeUrl: "/status/200") }
            }
            do {
                _ = try await service.fetch(name: "open", relativeUrl: "/status/200")
            } catch let error as ManagedAPIException {
                #expect(error.errorCode == "RATE_LIMITED")
                #expect(error.statusCode == 429)
            }
            let metrics = String(decoding: try await URLSessionTransport().send(URLRequest(url: f.live.baseURL.appendingPathComponent("metrics"))).0, as: UTF8.self)
            #expect(metrics.contains(#"gatehouse_managed_api_requests_total{method="GET",api="\#(f.tenant)/open",status="401"} 2"#))
            #expect(metrics.contains(#"gatehouse_managed_api_requests_total{method="GET",api="\#(f.tenant)/open",status="200"}"#))
            #expect(!metrics.contains("status/200"))
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func pathsThatEscapeTheBaseAndPrivateDestinationsAreRefused(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind)
        do {
            try await f.proxied("open", path: "/open/base")
            let prefix = "/api/managed-apis/v1/open/proxy"
            for path in ["//evil.example/x", "/http://evil.example/x", "/echo//x", "/../../secret", "/%2e%2e/%2e%2e/admin", "/a%2f..%2f..%2fb", "/a%5cb"] {
                let answer = try await f.rawProxy(prefix + path)
                #expect(answer.status == 400, "\(path): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                #expect(answer.headers[ManagedAPIWire.originHeader.lowercased()] == "PATH_REFUSED", "\(path)")
            }
            // A NUL or a line break is refused by the transport for every route, before the proxy sees it.
            for path in ["/a%00b", "/a%0d%0aX-Injected:%201"] {
                let refused = try await f.rawProxy(prefix + path)
                #expect(refused.status == 404 && refused.headers[ManagedAPIWire.originHeader.lowercased()] == "NOT_FOUND")
            }
            let fine = try await f.rawProxy(prefix + "/a/./b/../c?x=1")
            #expect(fine.status == 200)
            #expect(try await f.provider.stats().lastAPIRequest?.path == "/open/base/a/c")
            // The SDK refuses absolute URLs before sending anything.
            let before = try await f.provider.stats().apiRequests
            for url in ["https://evil.example/x", "//evil.example/x", "\\\\evil"] {
                await #expect(throws: ManagedAPIException.self) { try await f.service().fetch(name: "open", relativeUrl: url) }
            }
            #expect(try await f.provider.stats().apiRequests == before)

            // Not in development: loopback is refused, by name and by address, before any request.
            for (name, base) in [("loop", "https://127.0.0.1:\(f.provider.baseURL.port!)"), ("local", "https://localhost:9/x"), ("meta", "https://169.254.169.254/latest")] {
                try await f.define(.init(name: name, displayName: name, baseUrl: base, authType: "NONE", mode: "proxied"))
                let refused = try await f.rawProxy("/api/managed-apis/v1/\(name)/proxy/x")
                #expect(refused.status == 403, "\(name)")
                #expect(refused.headers[ManagedAPIWire.originHeader.lowercased()] == "DESTINATION_REFUSED")
                // Which address a name resolved to is not said.
                if name == "local" { #expect(!String(decoding: refused.body, as: UTF8.self).contains("127.0.0.1")) }
            }
            let direct = try await f.rawProxy("/api/managed-apis/v1/nope/proxy/x")
            #expect(direct.status == 404)
            // Characters a URL path cannot hold are refused, not handed to URL parsing (which traps on them).
            for path in ["/a{b}", "/a|b", "/a^b", "/a\"b", "/..;/x"] {
                let refused = try await f.rawProxy(prefix + path)
                #expect(refused.status == 400, "\(path): \(refused.status)")
            }
            #expect(try await f.rawProxy(prefix + "/still/alive").status == 200)
            // Made-up names share one metrics series.
            for index in 0..<3 { _ = try await f.rawProxy("/api/managed-apis/v1/made-up-\(index)/proxy/x") }
            let metrics = String(decoding: try await URLSessionTransport().send(URLRequest(url: f.live.baseURL.appendingPathComponent("metrics"))).0, as: UTF8.self)
            #expect(!metrics.contains("made-up"))
            #expect(metrics.contains(#"api="\#(f.tenant)/(unknown)",status="404"} 4"#))
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentSavesOfOneDefinitionAllLandAndLeaveOneWhole(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind)
        do {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        // Half carry the key, half leave it out (and keep the stored one).
                        let body = AdminWire.ManagedAPIDefinition(
                            name: "crm", displayName: "CRM \(index)", baseUrl: f.upstream + "/static/key-header", authType: "API_KEY", mode: "proxied",
                            development: true, apiKey: .init(placement: "header", name: "X-API-Key", value: index % 2 == 0 ? OAuthTestProvider.apiKey : nil))
                        do {
                            _ = try await f.define(body)
                            return 200
                        } catch GatehouseClientError.api(let status, _, _, _) {
                            return status
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // A save without the key may come first and is refused; none is a 5xx, and the last stands whole.
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 400 }, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count >= 6)
            let saved = try await f.base.admin.send("GET", "/admin/v1/tenants/\(f.tenant)/managed-apis/crm", as: AdminWire.ManagedAPIDefinition.self)
            #expect(saved.hasSecret == true && saved.displayName.hasPrefix("CRM "))
            #expect(try await f.service().fetch(name: "crm", relativeUrl: "/x").status == 200)
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func largeAnswersStreamAndLimitsHold(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind) {
            $0.managedApiMaxResponseMb = 4
            $0.managedApiTimeout = 1
        }
        do {
            try await f.proxied("open", path: "/open-special")
            let service = f.service()
            let big = try await service.fetch(name: "open", relativeUrl: "/big?bytes=3000000")
            #expect(big.status == 200)
            #expect(big.data.count == 3_000_000)
            #expect(big.data.prefix(300) == Data((0..<300).map { UInt8($0 % 256) }))
            // Past the limit the connection is cut: a truncated body never reads as a whole one.
            await #expect(throws: ManagedAPIException.self) { try await service.fetch(name: "open", relativeUrl: "/big?bytes=6000000") }
            do {
                _ = try await service.fetch(name: "open", relativeUrl: "/slow?seconds=3")
                Issue.record("a slow upstream was waited for past the timeout")
            } catch let error as ManagedAPIException {
                #expect(error.errorCode == "UPSTREAM_TIMEOUT")
            }
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }
}
