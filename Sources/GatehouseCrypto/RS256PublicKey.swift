import COpenSSL
import Foundation

/// An RSA public key that checks RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256): the
/// tokens Google signs for Pub/Sub pushes, checked against the certificates Google publishes.
public struct RS256PublicKey: Sendable {
    private let key: EVPKey

    /// The key of a PEM certificate; throws unless it is RSA of 2048 bits or more.
    public init(certificatePEM: String) throws {
        let der = try Certificate(pem: certificatePEM).publicKeyDER
        let parsed = try EVPKey.parse(subjectPublicKeyInfo: der)
        guard EVP_PKEY_get_base_id(parsed.pointer) == EVP_PKEY_RSA, EVP_PKEY_get_bits(parsed.pointer) >= 2048 else {
            throw CryptoError.invalidKey("not an RSA key of at least 2048 bits")
        }
        key = parsed
    }

    init(key: EVPKey) { self.key = key }

    /// True when `signature` is this key's PKCS#1 v1.5 signature of SHA-256(`message`). Any
    /// failure, a library error included, answers false: a verifier fails closed.
    public func verify(signature: some DataProtocol, message: some DataProtocol) -> Bool {
        key.verifySHA256(signature: signature, message: message)
    }
}
