import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// HS256 tokens: RFC 7515 Appendix A.1, RFC 7519 §3.1, and the verifier's refusals.
struct JWTTests {
    /// RFC 7515 A.1 (and RFC 7519 §3.1): the example's exact compact serialization.
    static let rfcToken = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    /// The JWK `k` of RFC 7515 A.1.1.
    static let rfcKey = Base64URL.decode(
        "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
    )!
    static let rfcHeader = Array("{\"typ\":\"JWT\",\r\n \"alg\":\"HS256\"}".utf8)
    static let rfcPayload = Array(
        "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}".utf8
    )
    static let rfcExpiry = Date(timeIntervalSince1970: 1_300_819_380)
    static let key = [UInt8](repeating: 0x42, count: 32)
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func rfc7515ExampleVerifies() throws {
        let jws = try JWT.verifyHS256(Self.rfcToken, key: Self.rfcKey, now: Self.rfcExpiry - 1)
        #expect(jws.header.alg == "HS256")
        #expect(jws.header.typ == "JWT")
        #expect(jws.headerJSON == Self.rfcHeader)
        #expect(jws.payload == Self.rfcPayload)
    }

    @Test func rfc7515ExampleSignsToTheSameBytes() throws {
        let token = try JWT.signHS256(headerJSON: Self.rfcHeader, payloadJSON: Self.rfcPayload, key: Self.rfcKey)
        #expect(token == Self.rfcToken)
    }

    @Test func aTokenThatNamesItsKeyCarriesExactlyThatHeader() throws {
        let token = try JWT.signHS256(payloadJSON: Array(#"{"exp":1700000100}"#.utf8), key: Self.key, keyID: "k/1")
        let jws = try JWT.verifyHS256(token, key: Self.key, now: Self.now)
        #expect(String(decoding: jws.headerJSON, as: UTF8.self) == #"{"alg":"HS256","kid":"k/1","typ":"JWT"}"#)
        #expect(jws.header.kid == "k/1")
        #expect(throws: JWTError.expired) { try JWT.verifyHS256(token, key: Self.key, now: Self.now + 100) }
    }

    @Test func rfc7519ExampleClaims() throws {
        let jws = try JWT.verifyHS256(Self.rfcToken, key: Data(Self.rfcKey), now: Self.rfcExpiry - 3600)
        let claims = try jws.claims()
        #expect(claims["iss"] as? String == "joe")
        #expect((claims["exp"] as? NSNumber)?.int64Value == 1_300_819_380)
        #expect(claims["http://example.com/is_root"] as? Bool == true)
    }

    @Test func rfcExampleExpiresAtExp() {
        #expect(throws: JWTError.expired) {
            try JWT.verifyHS256(Self.rfcToken, key: Self.rfcKey, now: Self.rfcExpiry)
        }
        #expect(throws: JWTError.expired) { try JWT.verifyHS256(Self.rfcToken, key: Self.rfcKey, now: Self.now) }
    }

    @Test func leewayStretchesExpiryAndNotBefore() throws {
        let token = try JWT.signHS256(claims: ["sub": "u1", "exp": 1000, "nbf": 500], key: Self.key)
        func verify(at seconds: TimeInterval, leeway: TimeInterval) throws {
            _ = try JWT.verifyHS256(token, key: Self.key, now: Date(timeIntervalSince1970: seconds), leeway: leeway)
        }
        try verify(at: 500, leeway: 0)
        try verify(at: 999.5, leeway: 0)
        #expect(throws: JWTError.expired) { try verify(at: 1000, leeway: 0) }
        try verify(at: 1059, leeway: 60)
        #expect(throws: JWTError.expired) { try verify(at: 1060, leeway: 60) }
        #expect(throws: JWTError.notYetValid) { try verify(at: 499, leeway: 0) }
        try verify(at: 440, leeway: 60)
        #expect(throws: JWTError.notYetValid) { try verify(at: 439, leeway: 60) }
    }

    @Test func tokensWithoutTimeClaimsNeverExpire() throws {
        let token = try JWT.signHS256(claims: ["sub": "u1"], key: Self.key)
        _ = try JWT.verifyHS256(token, key: Self.key, now: .distantFuture)
    }

    @Test func encodableAndDictionaryClaimsSignTheSameJSON() throws {
        struct Claims: Encodable {
            let sub: String
            let exp: Date
        }
        let fromEncodable = try JWT.signHS256(
            encoding: Claims(sub: "u1", exp: Date(timeIntervalSince1970: 2000)), key: Self.key
        )
        let fromDictionary = try JWT.signHS256(claims: ["sub": "u1", "exp": 2000], key: Self.key)
        #expect(fromEncodable == fromDictionary)
        let jws = try JWT.verifyHS256(fromEncodable, key: Self.key, now: Date(timeIntervalSince1970: 1000))
        #expect(String(decoding: jws.payload, as: UTF8.self) == #"{"exp":2000,"sub":"u1"}"#)
        #expect(String(decoding: jws.headerJSON, as: UTF8.self) == #"{"alg":"HS256","typ":"JWT"}"#)
    }

    @Test func wrongKeyOrTamperingIsABadSignature() throws {
        let token = try JWT.signHS256(claims: ["sub": "u1"], key: Self.key)
        let otherKey = [UInt8](repeating: 0x43, count: 32)
        #expect(throws: JWTError.badSignature) { try JWT.verifyHS256(token, key: otherKey, now: Self.now) }

        let parts = token.split(separator: ".").map(String.init)
        let forgedPayload = Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
        let forged = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
        #expect(throws: JWTError.badSignature) { try JWT.verifyHS256(forged, key: Self.key, now: Self.now) }
        let truncated = [parts[0], parts[1], Base64URL.encode(Base64URL.decode(parts[2])!.prefix(16))]
            .joined(separator: ".")
        #expect(throws: JWTError.badSignature) { try JWT.verifyHS256(truncated, key: Self.key, now: Self.now) }
    }

    @Test func otherAlgorithmsAreRefused() throws {
        let payload = Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + payload + "."
        #expect(throws: JWTError.unsupportedAlgorithm("none")) {
            try JWT.verifyHS256(none, key: Self.key, now: Self.now)
        }
        for alg in ["HS384", "hs256", "ES256", "RS256", "HS256 "] {
            let header = Base64URL.encode(Array("{\"alg\":\"\(alg)\"}".utf8))
            let token = header + "." + payload + "." + Base64URL.encode(HMAC.sha256(key: Self.key, message: []))
            #expect(throws: JWTError.unsupportedAlgorithm(alg)) {
                try JWT.verifyHS256(token, key: Self.key, now: Self.now)
            }
        }
        #expect(throws: JWTError.unsupportedAlgorithm("none")) {
            try JWT.signHS256(headerJSON: Array(#"{"alg":"none"}"#.utf8), payloadJSON: [UInt8](), key: Self.key)
        }
    }

    @Test(arguments: [
        "", "abc", "a.b", "a.b.c.d", "..", // not three base64url segments of a header
        "eyJhbGciOiJIUzI1NiJ9.e30=.AAAA", // padded payload
        "eyJhbGciOiJIUzI1NiJ9.e30.AA+A", // standard alphabet in the signature
        "WyJIUzI1NiJd.e30.AAAA", // header is a JSON array
        "eyJhbGciOjI1Nn0.e30.AAAA", // alg is a number
        "eyJ0eXAiOiJKV1QifQ.e30.AAAA", // no alg
        "eyJhbGciOiJIUzI1NiIsImNyaXQiOlsiZXhwIl19.e30.AAAA", // crit present
    ])
    func malformedTokens(token: String) {
        #expect(throws: JWTError.malformed) { try JWT.verifyHS256(token, key: Self.key, now: Self.now) }
    }

    @Test func validlySignedButMalformedClaims() throws {
        for payload in ["[1,2]", "not json", #"{"exp":"2000"}"#, #"{"exp":true}"#, #"{"nbf":{}}"#] {
            let token = try JWT.signHS256(payloadJSON: Array(payload.utf8), key: Self.key)
            #expect(throws: JWTError.malformed, "payload \(payload)") {
                try JWT.verifyHS256(token, key: Self.key, now: Self.now)
            }
        }
    }

    @Test func shortKeysAreRefused() {
        let shortKey = [UInt8](repeating: 1, count: 31)
        #expect(throws: CryptoError.self) { try JWT.signHS256(claims: ["a": 1], key: shortKey) }
        #expect(throws: CryptoError.self) { try JWT.verifyHS256(Self.rfcToken, key: shortKey, now: Self.now) }
    }
}
