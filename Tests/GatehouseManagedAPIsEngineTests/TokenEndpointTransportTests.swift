import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseManagedAPIsEngine

/// The client-credentials token request over the real outbound client, against a token
/// endpoint that misbehaves: each ends within the request's deadline (inside the lease) as
/// `credentialUnavailable`, a 401 with `WWW-Authenticate: Basic` at once and with its RFC 6749
/// error code; a redirect is never followed, and a definition held to public addresses never
/// connects to a private one, even when the guard before it let the URL through.
@Suite struct TokenEndpointTransportTests {
    /// A development definition may use http; one held to public addresses must use https,
    /// and is refused at the connect, before any TLS.
    static func endpoint(_ upstream: HostileUpstream, _ item: (path: String, development: Bool, reason: String)) -> URL {
        item.development ? upstream.url(item.path) : URL(string: "https://127.0.0.1:\(upstream.port)\(item.path)")!
    }

    @Test(arguments: TestDatabaseKind.available)
    func aHostileTokenEndpointEndsEveryFetchAsCredentialUnavailable(_ kind: TestDatabaseKind) async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let h = try await ManagedAPIsHarness(kind, http: CurlHTTPClient())
        defer { h.close() }
        let cases: [(path: String, development: Bool, reason: String)] = [
            ("/unauthorized/basic", true, #"error: "invalid_client""#),
            ("/unauthorized/bearer", true, #"error: "invalid_client""#),
            ("/silent", true, "tokenEndpointUnreachable"),
            ("/head-only", true, "tokenEndpointUnreachable"),
            ("/trickle", true, "tokenEndpointUnreachable"),
            ("/reset", true, "tokenEndpointUnreachable"),
            ("/stream", true, "tokenEndpointUnreachable"),
            ("/redirect", true, "status: 302"),
            ("/headers", true, "tokenEndpointUnreachable"),
            ("/ok", false, "tokenEndpointUnreachable"),
        ]
        for (index, item) in cases.enumerated() {
            let auth = ManagedAPIDefinition.Auth.oauth2(.init(
                grant: .clientCredentials, authorizationEndpoint: nil, tokenEndpoint: Self.endpoint(upstream, item), clientID: "server-app",
                clientSecret: "cc-secret"))
            try await h.save(ManagedAPIsHarness.definition("api\(index)", auth: auth, development: item.development))
        }
        // All at once: the slow ones each take their deadline, not the sum of them.
        let reasons = await withTaskGroup(of: (Int, String).self) { group in
            for index in cases.indices {
                group.addTask {
                    do {
                        _ = try await h.engine.plan(tenantID: h.tenantID, name: "api\(index)", rawPath: "/x", query: [])
                        return (index, "planned")
                    } catch let error as ManagedAPIError where error.code == .credentialUnavailable {
                        return (index, "\(error.reason)")
                    } catch {
                        return (index, "\(error)")
                    }
                }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for (index, item) in cases.enumerated() {
            #expect(reasons[index]?.contains(item.reason) == true, "\(item.path): \(reasons[index] ?? "")")
        }
    }
}
