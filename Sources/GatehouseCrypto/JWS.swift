import Foundation
import GatehouseFormats

/// Compact JWS with ES256 (ECDSA P-256 + SHA-256, RFC 7518 §3.4), as App Store signed data uses.
public enum JWS {
    /// Splits and decodes a compact JWS without checking its signature.
    public static func decode(compact: String) throws -> CompactJWS {
        try CompactJWS(compact: compact)
    }

    /// Verifies an ES256 compact JWS with `publicKey` and returns it decoded.
    ///
    /// Throws `.unsupportedAlgorithm` unless `alg` is exactly `ES256` (so `none` and HMAC
    /// confusion are refused before any key is used), and `.badSignature` unless the signature is
    /// a 64-byte r‖s pair that verifies over the signing input.
    public static func verifyES256(compact: String, publicKey: P256PublicKey) throws -> CompactJWS {
        let jws = try CompactJWS(compact: compact)
        guard jws.header.alg == "ES256" else { throw JWTError.unsupportedAlgorithm(jws.header.alg) }
        guard jws.signature.count == 64, publicKey.verify(rawSignature: jws.signature, message: jws.signingInput) else {
            throw JWTError.badSignature
        }
        return jws
    }

    /// Verifies an RS256 compact JWS with `publicKey` and returns it decoded; a header naming any
    /// other algorithm (`none`, `HS256` keyed with the public key, …) is refused before any check.
    public static func verifyRS256(compact: String, publicKey: RS256PublicKey) throws -> CompactJWS {
        let jws = try decode(compact: compact)
        guard jws.header.alg == "RS256" else { throw JWTError.unsupportedAlgorithm(jws.header.alg) }
        guard publicKey.verify(signature: jws.signature, message: jws.signingInput) else { throw JWTError.badSignature }
        return jws
    }

    /// Signs `payload` with ES256 under a header built from `x5c` (leaf first, as standard base64
    /// DER) and `keyID`, and returns the compact serialization.
    public static func signES256(
        payload: some DataProtocol, privateKey: P256PrivateKey, x5c: [Certificate] = [], keyID: String? = nil
    ) throws -> String {
        let header = ES256Header(kid: keyID, x5c: x5c.isEmpty ? nil : x5c.map { Base64.encode($0.derRepresentation) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try signES256(headerJSON: encoder.encode(header), payload: payload, privateKey: privateKey)
    }

    /// Signs exactly the given header and payload bytes with ES256; the header must say `ES256`.
    public static func signES256(
        headerJSON: some DataProtocol, payload: some DataProtocol, privateKey: P256PrivateKey
    ) throws -> String {
        try requireAlgorithm("ES256", inHeader: headerJSON)
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payload)
        let signature = try privateKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Signs exactly the given header and payload bytes with RS256 (a Vonage application's
    /// token, a Google service account's grant); the header must say `RS256`.
    public static func signRS256(
        headerJSON: some DataProtocol, payload: some DataProtocol, privateKey: RS256PrivateKey
    ) throws -> String {
        try requireAlgorithm("RS256", inHeader: headerJSON)
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payload)
        let signature = try privateKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Throws unless `headerJSON` is a JOSE header whose `alg` is `algorithm`, so a signer never
    /// emits a token whose header names a different algorithm from the one that signed it.
    static func requireAlgorithm(_ algorithm: String, inHeader headerJSON: some DataProtocol) throws {
        let header = try JOSEHeader.parse(Array(headerJSON))
        guard header.alg == algorithm else { throw JWTError.unsupportedAlgorithm(header.alg) }
    }
}

/// The header `JWS.signES256(payload:privateKey:x5c:keyID:)` writes; nil fields are omitted.
private struct ES256Header: Encodable {
    let alg = "ES256"
    let kid: String?
    let x5c: [String]?
}
