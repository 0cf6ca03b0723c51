import COpenSSL
import Foundation

/// A NIST P-256 private key that makes ECDSA-SHA-256 signatures (JOSE ES256).
///
/// The server only verifies Apple's signatures; signing exists so tests and local tooling can
/// play the signer's side (a fake App Store issuing signed transactions) with real keys.
public struct P256PrivateKey: Sendable {
    let key: EVPKey

    private init(validating key: EVPKey) throws {
        guard key.curveName == P256PublicKey.curveName else {
            throw CryptoError.invalidKey("expected an EC P-256 key, got \(key.curveName ?? "a non-EC key")")
        }
        let context = try OpenSSL.check(EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_check(context) == 1 else {
            throw CryptoError.invalidKey("private key check failed: \(OpenSSL.drainErrors())")
        }
        self.key = key
    }

    /// Generates a fresh key from OpenSSL's own CSPRNG; OpenSSL key generation cannot draw from
    /// an injected `RandomSource`, so tests that need a fixed key load one with `init(pem:)`.
    public static func generate() throws -> P256PrivateKey {
        let context = try OpenSSL.check(
            EVP_PKEY_CTX_new_from_name(nil, copenssl_key_type_ec(), nil), "EVP_PKEY_CTX_new_from_name"
        )
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        try OpenSSL.check(
            EVP_PKEY_CTX_set_group_name(context, P256PublicKey.curveName), "EVP_PKEY_CTX_set_group_name"
        )
        var generated: OpaquePointer?
        try OpenSSL.check(EVP_PKEY_generate(context, &generated), "EVP_PKEY_generate")
        return try P256PrivateKey(validating: EVPKey(taking: OpenSSL.check(generated, "EVP_PKEY_generate")))
    }

    /// Reads an unencrypted PEM private key (`PRIVATE KEY` PKCS#8 or `EC PRIVATE KEY` SEC 1).
    public init(pem: String) throws {
        let parsed = try MemoryBIO.reading(pem) { bio in
            try OpenSSL.check(PEM_read_bio_PrivateKey(bio, nil, nil, nil), "PEM_read_bio_PrivateKey")
        }
        try self.init(validating: EVPKey(taking: parsed))
    }

    /// The key as an unencrypted PKCS#8 PEM block.
    public var pemRepresentation: String {
        OpenSSL.mustSucceed {
            try MemoryBIO.collecting { bio in
                try OpenSSL.check(
                    PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil), "PEM_write_bio_PrivateKey"
                )
            }
        }
    }

    /// The matching public key.
    public var publicKey: P256PublicKey {
        OpenSSL.mustSucceed { try P256PublicKey(subjectPublicKeyInfo: key.subjectPublicKeyInfo()) }
    }

    /// Signs SHA-256(`message`) and returns the 64-byte r‖s form JOSE uses.
    public func signature(for message: some DataProtocol) throws -> [UInt8] {
        try ECDSASignature.raw(fromDER: derSignature(for: message))
    }

    /// Signs SHA-256(`message`) and returns the DER `ECDSA-Sig-Value` form X.509 and TLS use.
    public func derSignature(for message: some DataProtocol) throws -> [UInt8] {
        let context = try OpenSSL.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try OpenSSL.check(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer), "EVP_DigestSignInit")
        return try withContiguousBytes(message) { message in
            let input = message.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var length = 0
            try OpenSSL.check(EVP_DigestSign(context, nil, &length, input, message.count), "EVP_DigestSign(size)")
            var output = [UInt8](repeating: 0, count: length)
            try OpenSSL.check(EVP_DigestSign(context, &output, &length, input, message.count), "EVP_DigestSign")
            return Array(output.prefix(length))
        }
    }
}
