import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehousePossessionEngine

/// The CAMARA carrier check over the real outbound client, against an operator that
/// misbehaves: every check ends within its timeout as `unavailable` (so the flow falls back to
/// a code), a redirect is never followed, and an operator held to public addresses is never
/// connected to on a private one, even when the guard before it let the URL through.
@Suite struct CamaraTransportTests {
    static func settings(_ upstream: HostileUpstream, token: String, api: String = "/ok", development: Bool = true) -> CamaraSettings {
        CamaraSettings(
            authorizationEndpoint: upstream.url("/authorize"), tokenEndpoint: upstream.url(token), apiBase: upstream.url(api), clientId: "client",
            redirectUri: URL(string: "https://app.example/callback")!, development: development)
    }

    @Test func aHostileOperatorEndsEveryCheckAsUnavailable() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let camara = CamaraNumberVerification(http: CurlHTTPClient(), timeout: 1, allowsPrivateAddresses: true, vet: { _, _ in })
        let cases: [(CamaraSettings, String)] = [
            (Self.settings(upstream, token: "/unauthorized/basic"), "token endpoint answered 401"),
            (Self.settings(upstream, token: "/silent"), "token endpoint unreachable"),
            (Self.settings(upstream, token: "/trickle"), "token endpoint unreachable"),
            (Self.settings(upstream, token: "/reset"), "token endpoint unreachable"),
            (Self.settings(upstream, token: "/stream?bytes=1000000"), "token endpoint unreachable"),
            (Self.settings(upstream, token: "/redirect?to=/ok"), "token endpoint answered 302"),
            (Self.settings(upstream, token: "/ok", development: false), "token endpoint unreachable"),
        ]
        for (settings, reason) in cases {
            let result = await camara.verify(settings, clientSecret: "secret", code: "code", phoneNumber: "+12025550142")
            #expect(result == .unavailable(reason), "\(settings.tokenEndpoint): \(result)")
        }
    }
}
