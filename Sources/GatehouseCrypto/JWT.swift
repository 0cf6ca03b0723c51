import Foundation
import GatehouseFormats

/// JSON Web Tokens signed with HS256 (HMAC-SHA-256, RFC 7519 + RFC 7518 §3.2).
public enum JWT {
    /// Shortest HS256 key accepted: RFC 7518 §3.2 requires at least the hash size, 256 bits.
    public static let minimumKeyLength = 32

    /// The header `signHS256` uses unless given one.
    static let defaultHeaderJSON = Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)

    /// Signs a claims dictionary (serialized with sorted keys, so output is reproducible).
    public static func signHS256(claims: [String: Any], key: some DataProtocol) throws -> String {
        guard JSONSerialization.isValidJSONObject(claims) else { throw JWTError.malformed }
        let payload = try JSONSerialization.data(
            withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]
        )
        return try signed(headerJSON: defaultHeaderJSON, payloadJSON: payload, key: key)
    }

    /// Signs an `Encodable` claims value, encoded with `encoder` (sorted keys by default).
    public static func signHS256(
        encoding claims: some Encodable, key: some DataProtocol, encoder: JSONEncoder = JWT.claimsEncoder()
    ) throws -> String {
        try signed(headerJSON: defaultHeaderJSON, payloadJSON: encoder.encode(claims), key: key)
    }

    /// Signs raw payload JSON bytes under the default `{"alg":"HS256","typ":"JWT"}` header.
    public static func signHS256(payloadJSON: some DataProtocol, key: some DataProtocol) throws -> String {
        try signed(headerJSON: defaultHeaderJSON, payloadJSON: payloadJSON, key: key)
    }

    /// Signs payload bytes under `{"alg":"HS256","kid":keyID,"typ":"JWT"}`, a header built
    /// here and so not read back.
    public static func signHS256(payloadJSON: some DataProtocol, key: some DataProtocol, keyID: String) throws -> String {
        try signed(headerJSON: SortedJSONEncoder.encode(KeyedHeader(kid: keyID)), payloadJSON: payloadJSON, key: key)
    }

    /// Signs exactly the given header and payload bytes; the header's `alg` must be `HS256`.
    public static func signHS256(
        headerJSON: some DataProtocol, payloadJSON: some DataProtocol, key: some DataProtocol
    ) throws -> String {
        try JWS.requireAlgorithm("HS256", inHeader: headerJSON)
        return try signed(headerJSON: headerJSON, payloadJSON: payloadJSON, key: key)
    }

    /// Signs a header already known to say HS256 (the default one needs no reading).
    private static func signed(headerJSON: some DataProtocol, payloadJSON: some DataProtocol, key: some DataProtocol) throws -> String {
        try requireStrongKey(key)
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payloadJSON)
        return signingInput + "." + Base64URL.encode(HMAC.sha256(key: key, message: Array(signingInput.utf8)))
    }

    /// Verifies an HS256 token and its time claims at `now`, returning it decoded.
    ///
    /// Checks run in this order, each with its own error: three strict base64url segments and
    /// JSON object header (`.malformed`); `alg` exactly `HS256` (`.unsupportedAlgorithm`, which
    /// refuses `none`); the MAC, compared in constant time (`.badSignature`); a JSON object
    /// payload with numeric `exp`/`nbf` if present (`.malformed`); then `.expired` / `.notYetValid`.
    public static func verifyHS256(
        _ token: String, key: some DataProtocol, now: Date, leeway: TimeInterval = 0
    ) throws -> CompactJWS {
        try verifyHS256(try CompactJWS(compact: token), key: key, now: now, leeway: leeway)
    }

    /// ``verifyHS256(_:key:now:leeway:)`` for a token already parsed (to read its `kid`).
    @discardableResult
    public static func verifyHS256(
        _ jws: CompactJWS, key: some DataProtocol, now: Date, leeway: TimeInterval = 0
    ) throws -> CompactJWS {
        try verifyHS256(jws, times: nil, key: key, now: now, leeway: leeway)
    }

    /// ``verifyHS256(_:key:now:leeway:)`` for a token whose time claims were read with its
    /// parse (a caller that keeps parsed tokens does not read them again on every request).
    @discardableResult
    public static func verifyHS256(_ token: TimedJWS, key: some DataProtocol, now: Date, leeway: TimeInterval = 0) throws -> CompactJWS {
        try verifyHS256(token.jws, times: token.times, key: key, now: now, leeway: leeway)
    }

    private static func verifyHS256(
        _ jws: CompactJWS, times: TimeClaims?, key: some DataProtocol, now: Date, leeway: TimeInterval
    ) throws -> CompactJWS {
        try requireStrongKey(key)
        guard jws.header.alg == "HS256" else { throw JWTError.unsupportedAlgorithm(jws.header.alg) }
        let expected = HMAC.sha256(key: key, message: jws.signingInput)
        guard constantTimeEquals(expected, jws.signature) else { throw JWTError.badSignature }
        try checkValidity(times ?? TimeClaims(of: jws), now: now, leeway: leeway)
        return jws
    }

    /// A compact JWS with its `exp` and `nbf` read from its payload, held together so that
    /// the claims checked are always the token's own.
    public struct TimedJWS: Sendable {
        public let jws: CompactJWS
        let times: TimeClaims

        public init(_ jws: CompactJWS) throws {
            self.jws = jws
            times = try TimeClaims(of: jws)
        }
    }

    /// Checks only the time claims of a token whose signature was verified before, under the
    /// key it is being accepted with now (a caller that remembers verified tokens by their
    /// exact text): its signature cannot have changed, its validity can.
    public static func checkValidity(of token: TimedJWS, now: Date, leeway: TimeInterval = 0) throws {
        try checkValidity(token.times, now: now, leeway: leeway)
    }

    /// Checks `exp` and `nbf` (NumericDate seconds) of a verified token's payload at `now`.
    ///
    /// A token is expired once `now >= exp + leeway` (RFC 7519 §4.1.4: valid only before `exp`)
    /// and not yet valid while `now < nbf - leeway`. Absent claims impose no limit.
    public static func checkValidity(of jws: CompactJWS, now: Date, leeway: TimeInterval = 0) throws {
        try checkValidity(TimeClaims(of: jws), now: now, leeway: leeway)
    }

    /// A token's `exp` and `nbf` (NumericDate seconds), read from its payload.
    struct TimeClaims: Decodable, Sendable {
        let exp: Double?
        let nbf: Double?

        /// Decoding the time claims also proves the payload is one JSON object without
        /// duplicate members, without building a dictionary of the whole payload.
        init(of jws: CompactJWS) throws {
            guard let times = try? jws.decodePayload(TimeClaims.self) else { throw JWTError.malformed }
            self = times
        }
    }

    static func checkValidity(_ times: TimeClaims, now: Date, leeway: TimeInterval) throws {
        precondition(leeway >= 0, "leeway must not be negative")
        let instant = now.timeIntervalSince1970
        if let exp = times.exp, instant >= exp + leeway { throw JWTError.expired }
        if let nbf = times.nbf, instant < nbf - leeway { throw JWTError.notYetValid }
    }

    /// The default encoder for `Encodable` claims: sorted keys, dates as NumericDate seconds.
    public static func claimsEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    private static func requireStrongKey(_ key: some DataProtocol) throws {
        guard key.count >= minimumKeyLength else {
            throw CryptoError.invalidKey("HS256 keys need at least \(minimumKeyLength) bytes, got \(key.count)")
        }
    }
}

/// The HS256 header that names its key.
private struct KeyedHeader: Encodable {
    let alg = "HS256"
    let kid: String
    let typ = "JWT"
}
