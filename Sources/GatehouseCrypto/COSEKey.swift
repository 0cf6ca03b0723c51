import Foundation
import GatehouseFormats

/// A credential's public key as COSE (RFC 9052/9053) encodes it in a passkey's attested
/// credential data: ES256 (EC2, P-256), EdDSA (OKP, Ed25519) or RS256 (RSA, 2048 bits or more).
public enum COSEKey: Sendable {
    case es256(P256PublicKey)
    case eddsa(Ed25519PublicKey)
    case rs256(RS256PublicKey)

    /// COSE algorithm identifiers (IANA "COSE Algorithms").
    public static let es256 = -7
    public static let eddsa = -8
    public static let rs256 = -257

    /// Why a COSE key is refused.
    public enum Problem: Error, Equatable, Sendable {
        /// Not a map, or a label missing or of the wrong type.
        case malformed(String)
        /// An algorithm, key type or curve this relying party does not take, or that do not match.
        case unsupported(String)
        /// The numbers are not a valid key (off the curve, too short).
        case invalidKey
    }

    public var algorithm: Int {
        switch self {
        case .es256: Self.es256
        case .eddsa: Self.eddsa
        case .rs256: Self.rs256
        }
    }

    /// Reads a COSE_Key map. The key type and curve must be the algorithm's own.
    public init(_ cbor: CBOR) throws(Problem) {
        guard cbor.pairs != nil else { throw .malformed("a COSE key is a map") }
        guard let kty = cbor[1]?.integer else { throw .malformed("kty (1) is missing") }
        guard let alg = cbor[3]?.integer else { throw .malformed("alg (3) is missing") }
        func bytes(_ label: Int64, _ name: String, count: Int? = nil) throws(Problem) -> [UInt8] {
            guard let value = cbor[label]?.byteString else { throw .malformed("\(name) (\(label)) is missing") }
            if let count, value.count != count { throw .malformed("\(name) (\(label)) is not \(count) bytes") }
            return value
        }
        switch (kty, alg) {
        case (2, Int64(Self.es256)):
            guard cbor[-1]?.integer == 1 else { throw .unsupported("ES256 takes the P-256 curve (crv 1)") }
            let point = [0x04] + (try bytes(-2, "x", count: 32)) + (try bytes(-3, "y", count: 32))
            guard let key = try? P256PublicKey(uncompressedPoint: point) else { throw .invalidKey }
            self = .es256(key)
        case (1, Int64(Self.eddsa)):
            guard cbor[-1]?.integer == 6 else { throw .unsupported("EdDSA takes Ed25519 (crv 6)") }
            guard let key = try? Ed25519PublicKey(rawRepresentation: try bytes(-2, "x", count: 32)) else { throw .invalidKey }
            self = .eddsa(key)
        case (3, Int64(Self.rs256)):
            guard let key = try? RS256PublicKey(modulus: try bytes(-1, "n"), exponent: try bytes(-2, "e")) else { throw .invalidKey }
            self = .rs256(key)
        default:
            throw .unsupported("key type \(kty) with algorithm \(alg)")
        }
    }

    /// True when `signature` is this key's signature of `message`: DER ECDSA over SHA-256
    /// (ES256, as WebAuthn sends it, unlike JOSE's r‖s), Ed25519 of the message itself,
    /// PKCS#1 v1.5 over SHA-256 (RS256). Any failure answers false.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        switch self {
        case .es256(let key): key.verify(derSignature: signature, message: message)
        case .eddsa(let key): key.verify(signature: signature, message: message)
        case .rs256(let key): key.verify(signature: signature, message: message)
        }
    }
}
