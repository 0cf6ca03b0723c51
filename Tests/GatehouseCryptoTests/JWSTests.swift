import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// ES256: RFC 7515 Appendix A.3, tampering, and signing round trips.
struct JWSTests {
    /// RFC 7515 A.3.1: the example's public JWK coordinates.
    static let rfcX = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let rfcY = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    /// RFC 7515 A.3.1: the example's compact serialization.
    static let rfcToken = "eyJhbGciOiJFUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    static func rfcKey() throws -> P256PublicKey { try P256PublicKey(jwkX: rfcX, y: rfcY) }

    static func replacingSegment(_ index: Int, of token: String, with segment: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = segment
        return parts.joined(separator: ".")
    }

    @Test func rfc7515ExampleVerifies() throws {
        let jws = try JWS.verifyES256(compact: Self.rfcToken, publicKey: Self.rfcKey())
        #expect(jws.header.alg == "ES256")
        #expect(jws.signature.count == 64)
        let claims = try jws.claims()
        #expect(claims["iss"] as? String == "joe")
    }

    @Test func tamperedExampleFails() throws {
        let key = try Self.rfcKey()
        let payload = Base64URL.encode(Array(#"{"iss":"mallory","exp":1300819380}"#.utf8))
        #expect(throws: JWTError.badSignature) {
            try JWS.verifyES256(compact: Self.replacingSegment(1, of: Self.rfcToken, with: payload), publicKey: key)
        }
        var signature = try #require(Base64URL.decode(Self.rfcToken.split(separator: ".")[2]))
        signature[10] ^= 0x01
        #expect(throws: JWTError.badSignature) {
            try JWS.verifyES256(
                compact: Self.replacingSegment(2, of: Self.rfcToken, with: Base64URL.encode(signature)), publicKey: key
            )
        }
        // A DER signature, or r‖s with a byte missing, is not JOSE's 64-byte form.
        #expect(throws: JWTError.badSignature) {
            try JWS.verifyES256(
                compact: Self.replacingSegment(2, of: Self.rfcToken, with: Base64URL.encode(signature.prefix(63))),
                publicKey: key
            )
        }
    }

    @Test func algorithmMustBeES256() throws {
        let header = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8))
        #expect(throws: JWTError.unsupportedAlgorithm("HS256")) {
            try JWS.verifyES256(
                compact: Self.replacingSegment(0, of: Self.rfcToken, with: header), publicKey: Self.rfcKey()
            )
        }
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
        #expect(throws: JWTError.unsupportedAlgorithm("none")) {
            try JWS.verifyES256(compact: none + ".e30.", publicKey: Self.rfcKey())
        }
    }

    @Test func theWrongKeyFails() throws {
        let other = try P256PrivateKey.generate().publicKey
        #expect(throws: JWTError.badSignature) { try JWS.verifyES256(compact: Self.rfcToken, publicKey: other) }
    }

    @Test func signAndVerifyRoundTrip() throws {
        let privateKey = try P256PrivateKey.generate()
        let payload = Array(#"{"bundleId":"com.example.app","signedDate":1750000000000}"#.utf8)
        let token = try JWS.signES256(payload: payload, privateKey: privateKey, keyID: "k1")
        let jws = try JWS.verifyES256(compact: token, publicKey: privateKey.publicKey)
        #expect(jws.payload == payload)
        #expect(jws.header.kid == "k1")
        #expect(jws.header.x5c == nil)
        #expect(throws: JWTError.malformed) { try jws.certificateChain() }
    }

    @Test func signingRefusesAHeaderForAnotherAlgorithm() throws {
        let privateKey = try P256PrivateKey.generate()
        #expect(throws: JWTError.unsupportedAlgorithm("HS256")) {
            try JWS.signES256(headerJSON: Array(#"{"alg":"HS256"}"#.utf8), payload: [UInt8](), privateKey: privateKey)
        }
    }

    @Test func decodeWithoutVerifying() throws {
        let jws = try JWS.decode(compact: Self.rfcToken)
        #expect(jws.headerJSON == Array(#"{"alg":"ES256"}"#.utf8))
        #expect(jws.signingInput == Array(Self.rfcToken.split(separator: ".").prefix(2).joined(separator: ".").utf8))
        struct Claims: Decodable {
            let iss: String
            let exp: Int
        }
        let claims = try jws.decodePayload(Claims.self)
        #expect(claims.iss == "joe")
        #expect(claims.exp == 1_300_819_380)
    }
}
