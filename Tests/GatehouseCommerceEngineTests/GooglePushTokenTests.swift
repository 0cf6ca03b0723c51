import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// The tokens of Pub/Sub pushes, minted by google-auth against the stand-in's certificate
/// endpoint: a genuine one passes, and every forgery of the list is refused.
@Suite struct GooglePushTokenTests {
    static let audience = "https://gatehouse.example/webhooks/google-play"
    static let email = "pubsub-push@gatehouse-test.iam.gserviceaccount.com"

    /// `token` with its header or payload replaced (the signature kept).
    static func replacing(_ token: String, header: [String: Any]? = nil, payload: [String: Any]? = nil, signature: String? = nil) throws -> String {
        try JWTForgery.replacing(token, header: header, payload: payload, signature: signature)
    }

    static func payload(_ token: String) throws -> [String: Any] { try JWTForgery.json(token, part: 1) }

    @Test func aGenuinePushPassesAndForgeriesAreRefused() async throws {
        let google = try await GoogleStandIn.start()
        defer { google.stop() }
        let verifier = GooglePushTokens(certificatesURL: google.certificatesURL, http: CurlHTTPClient(), clock: SystemClock())
        func check(_ token: String) async throws -> [String: JSONValue] {
            try await verifier.verify(token, audience: Self.audience, serviceAccountEmail: Self.email)
        }
        let genuine = try await google.pushToken(audience: Self.audience, email: Self.email)
        #expect(try await check(genuine)["email"]?.string == Self.email)
        #expect(try await check(genuine)["sub"] != nil)

        let now = Int(Date().timeIntervalSince1970)
        let minted: [(String, [String: Any], PushTokenRefusal)] = [
            ("wrong aud", ["aud": "https://elsewhere.example/push"], .wrongAudience),
            ("wrong iss", ["iss": "https://accounts.example.com"], .wrongIssuer),
            ("wrong email", ["email": "someone@gatehouse-test.iam.gserviceaccount.com"], .wrongAccount),
            ("unverified email", ["email_verified": false], .wrongAccount),
            ("expired", ["iat": now - 7200, "exp": now - 3600], .expired),
            ("issued in the future", ["iat": now + 3600, "exp": now + 7200], .expired),
            ("no exp", ["exp": NSNull()], .expired),
        ]
        for (name, claims, refusal) in minted {
            let token = try await google.pushToken(audience: Self.audience, email: Self.email, claims: claims)
            await #expect(throws: refusal, "\(name)") { try await check(token) }
        }

        let header = try JWTForgery.json(genuine, part: 0)
        var tampered = try Self.payload(genuine)
        tampered["email"] = "attacker@example.com"
        let publicPEM = try #require(try await google.certificates()[header["kid"] as? String ?? ""])
        let hs256 = try JWTForgery.hs256(genuine, keyedWith: publicPEM)
        let forged: [(String, String, PushTokenRefusal)] = [
            ("alg none", try Self.replacing(genuine, header: ["alg": "none", "kid": header["kid"] as Any], signature: ""), .malformed),
            ("HS256 keyed with the public key", hs256, .malformed),
            ("unknown kid", try Self.replacing(genuine, header: ["alg": "RS256", "kid": "0123456789abcdef", "typ": "JWT"]), .unknownKey),
            ("tampered payload", try Self.replacing(genuine, payload: tampered), .badSignature),
            ("no kid", try Self.replacing(genuine, header: ["alg": "RS256", "typ": "JWT"]), .malformed),
            ("not a JWT", "Bearer-junk", .malformed),
        ]
        for (name, token, refusal) in forged {
            await #expect(throws: refusal, "\(name)") { try await check(token) }
        }
        // The RS256 check itself refuses another algorithm before looking at the signature.
        let key = try RS256PublicKey(certificatePEM: publicPEM)
        #expect(throws: JWTError.unsupportedAlgorithm("HS256")) { try JWS.verifyRS256(compact: hs256, publicKey: key) }
        #expect(throws: JWTError.badSignature) { try JWS.verifyRS256(compact: try Self.replacing(genuine, payload: tampered), publicKey: key) }
        #expect(try JWS.verifyRS256(compact: genuine, publicKey: key).header.kid == header["kid"] as? String)
    }

    @Test func certificatesAreKeptAsLongAsGoogleSaysAndFetchedForANewKey() async throws {
        let google = try await GoogleStandIn.start()
        defer { google.stop() }
        let clock = ManualClock(Date())
        let verifier = GooglePushTokens(certificatesURL: google.certificatesURL, http: CurlHTTPClient(), clock: clock)
        func fetches() async throws -> Int { try await google.log().filter { $0.path == "/oauth2/v1/certs" }.count }
        for _ in 0..<3 {
            _ = try await verifier.verify(try await google.pushToken(audience: Self.audience, email: Self.email), audience: Self.audience, serviceAccountEmail: Self.email)
        }
        #expect(try await fetches() == 1)

        // A key Google started signing with is fetched once the certificates held are a minute old
        // (Pub/Sub retries a push refused before that); a made-up kid soon after makes no fetch.
        try await google.rotatePushKey()
        let rotated = try await google.pushToken(audience: Self.audience, email: Self.email)
        clock.advance(by: 61)
        _ = try await verifier.verify(rotated, audience: Self.audience, serviceAccountEmail: Self.email)
        #expect(try await fetches() == 2)
        let madeUp = try Self.replacing(rotated, header: ["alg": "RS256", "kid": "feedface", "typ": "JWT"])
        await #expect(throws: PushTokenRefusal.unknownKey) {
            try await verifier.verify(madeUp, audience: Self.audience, serviceAccountEmail: Self.email)
        }
        #expect(try await fetches() == 2)

        // Past max-age (3600 s) they are fetched again; Google down then is a retryable refusal.
        clock.advance(by: 3600)
        await google.shutdown()
        await #expect(throws: PushTokenRefusal.certificatesUnavailable) {
            try await verifier.verify(rotated, audience: Self.audience, serviceAccountEmail: Self.email)
        }
    }
}
