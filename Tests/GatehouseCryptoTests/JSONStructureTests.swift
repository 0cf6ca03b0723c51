import Foundation
import GatehouseCrypto
import Testing

/// `JSONStructure.check`: well-formed JSON with no repeated member name, and the JOSE readers
/// that refuse a header or payload which repeats one (RFC 7515 §4, RFC 7519 §4).
struct JSONStructureTests {
    static func check(_ text: String, maxDepth: Int = JSONStructure.defaultMaxDepth) throws {
        try JSONStructure.check(Array(text.utf8), maxDepth: maxDepth)
    }

    @Test(arguments: [
        #"{}"#, #"[]"#, #" {"a":1} "#, #""text""#, #"-0.5e+10"#, #"true"#, #"null"#,
        // The same name in different objects, or as a value, is no duplicate.
        #"{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"a"}"#,
        #"{"bundleId":"x","data":{"bundleId":"y"}}"#,
        // Names that differ only by case, or decode to different characters, are distinct.
        #"{"alg":1,"ALG":2,"a\u006Cg2":3}"#,
        #"{"\ud83d\ude00":1,"\ud83d\ude01":2,"\u00e9":3}"#,
    ])
    func acceptsDistinctNames(_ text: String) throws {
        try Self.check(text)
    }

    @Test(arguments: [
        (#"{"alg":"ES256","alg":"HS256"}"#, "alg"),
        (#"{"data":{"bundleId":"a","x":1,"bundleId":"b"}}"#, "bundleId"),
        (#"[1,{"k":[{"deep":1,"deep":2}]}]"#, "deep"),
        // Escapes decode before names compare, surrogate pairs included.
        (#"{"bundleId":"com.tenant.app","b\u0075ndleId":"com.other.app"}"#, "bundleId"),
        (#"{"\ud83d\ude00":1,"😀":2}"#, "😀"),
        (#"{"a\/b":1,"a/b":2}"#, "a/b"),
    ])
    func refusesRepeatedNames(_ text: String, _ name: String) {
        #expect(throws: JSONStructureError.duplicateMember(name: name)) { try Self.check(text) }
    }

    @Test(arguments: [
        "", " ", "{", #"{"a":1,}"#, "[1,]", #"{"a" 1}"#, "01", "1.", "-", "+1", "tru", "nul", #"{"a":1}x"#, #"{a:1}"#,
        "\"tab\there\"", #""\x""#, #""\u12""#, #"{"\ud800":1}"#, #"{"\udc00":1}"#, #"{"\ud83dx":1}"#, "{\"a\":1}{}",
    ])
    func refusesMalformedJSON(_ text: String) {
        #expect {
            try Self.check(text)
        } throws: { error in
            if case .malformed = error as? JSONStructureError { true } else { false }
        }
    }

    @Test func nestingStopsAtTheLimit() throws {
        let limit = JSONStructure.defaultMaxDepth
        try Self.check(String(repeating: "[", count: limit) + String(repeating: "]", count: limit))
        try Self.check(String(repeating: #"{"a":"#, count: limit - 1) + "{}" + String(repeating: "}", count: limit - 1))
        #expect(throws: JSONStructureError.tooDeep(limit: limit)) {
            try Self.check(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1))
        }
        // An attacker's million brackets are refused at the limit, without a million stack frames.
        #expect(throws: JSONStructureError.tooDeep(limit: 3)) { try Self.check(String(repeating: "[", count: 1_000_000), maxDepth: 3) }
    }

    @Test func manyMembersStayCheap() throws {
        // 100 000 names in one object: one hash set, no pairwise comparison.
        let members = (0..<100_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let started = Date()
        try Self.check("{" + members + "}")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(throws: JSONStructureError.duplicateMember(name: "k0")) { try Self.check("{" + members + #","k0":0}"#) }
    }

    // MARK: JOSE readers

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
