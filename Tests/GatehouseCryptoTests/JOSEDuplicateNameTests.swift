import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// The JOSE readers refuse a header or payload that names a member twice (RFC 7515 §4,
/// RFC 7519 §4): two readers, first-wins and last-wins, would see two different messages.
struct JOSEDuplicateNameTests {

    static let hmacKey = [UInt8](repeating: 0x42, count: 32)

    /// A compact JWS over exactly these header and payload bytes, HMAC-signed with `hmacKey`.
    static func hs256(header: String, payload: String) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(HMAC.sha256(key: hmacKey, message: Array(input.utf8)))
    }

    @Test func aHeaderNamingAlgTwiceIsRefused() throws {
        let privateKey = try P256PrivateKey.generate()
        let header = #"{"alg":"ES256","alg":"HS256"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"a"}"#.utf8))
        let token = input + "." + Base64URL.encode(try privateKey.signature(for: Array(input.utf8)))
        #expect(throws: JWTError.malformed) { try JWS.decode(compact: token) }
        #expect(throws: JWTError.malformed) { try JWS.verifyES256(compact: token, publicKey: privateKey.publicKey) }
        let hmac = Self.hs256(header: #"{"alg":"HS256","typ":"JWT","alg":"none"}"#, payload: #"{"sub":"a"}"#)
        #expect(throws: JWTError.malformed) { try JWT.verifyHS256(hmac, key: Self.hmacKey, now: Date()) }
        // Nor is such a header signed in the first place.
        #expect(throws: JWTError.malformed) {
            try JWS.signES256(headerJSON: Array(header.utf8), payload: [UInt8](), privateKey: privateKey)
        }
        #expect(throws: JWTError.malformed) {
            try JWT.signHS256(headerJSON: Array(#"{"alg":"HS256","\u0061lg":"HS256"}"#.utf8), payloadJSON: Array("{}".utf8), key: Self.hmacKey)
        }
    }

    @Test func aPayloadNamingAClaimTwiceIsRefused() throws {
        let header = #"{"alg":"HS256","typ":"JWT"}"#
        let good = Self.hs256(header: header, payload: #"{"sub":"alice","ctx":{"sub":"bob"}}"#)
        #expect(try JWT.verifyHS256(good, key: Self.hmacKey, now: Date()).claims()["sub"] as? String == "alice")
        for payload in [#"{"sub":"alice","sub":"admin"}"#, #"{"sub":"alice","s\u0075b":"admin"}"#, #"{"ctx":{"role":"a","role":"b"}}"#] {
            let token = Self.hs256(header: header, payload: payload)
            #expect(throws: JWTError.malformed) { try JWT.verifyHS256(token, key: Self.hmacKey, now: Date()) }
            let decoded = try JWS.decode(compact: token)
            #expect(throws: JWTError.malformed) { try decoded.claims() }
            #expect(throws: JWTError.malformed) { try decoded.decodePayload([String: String].self) }
        }
    }
}
