import COpenSSL
import Foundation

/// An Ed25519 public key (RFC 8032) that checks EdDSA signatures: a passkey's COSE key with
/// `alg` −8.
public struct Ed25519PublicKey: Sendable {
    let key: EVPKey

    /// The 32-byte public key as RFC 8032 encodes it (a COSE OKP key's `x`).
    public init(rawRepresentation bytes: [UInt8]) throws {
        guard bytes.count == 32 else { throw CryptoError.invalidKey("an Ed25519 public key is 32 bytes") }
        key = EVPKey(taking: try OpenSSL.check(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes, bytes.count), "EVP_PKEY_new_raw_public_key"))
    }

    init(key: EVPKey) { self.key = key }

    /// The 32 bytes of the key.
    public var rawRepresentation: [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = output.count
        _ = EVP_PKEY_get_raw_public_key(key.pointer, &output, &length)
        return Array(output.prefix(length))
    }

    /// True when `signature` (64 bytes) is this key's Ed25519 signature of `message` (the
    /// message itself: Ed25519 hashes inside). Any failure answers false.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        defer { OpenSSL.drainErrors() }
        guard signature.count == 64, let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key.pointer) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}

/// An Ed25519 private key, for tests and tools that play an authenticator's side.
public struct Ed25519PrivateKey: Sendable {
    let key: EVPKey

    /// A fresh key from OpenSSL's CSPRNG.
    public static func generate() throws -> Ed25519PrivateKey {
        let context = try OpenSSL.check(EVP_PKEY_CTX_new_from_name(nil, copenssl_key_type_ed25519(), nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        var generated: OpaquePointer?
        try OpenSSL.check(EVP_PKEY_generate(context, &generated), "EVP_PKEY_generate")
        return Ed25519PrivateKey(key: EVPKey(taking: try OpenSSL.check(generated, "EVP_PKEY_generate")))
    }

    public var publicKey: Ed25519PublicKey { Ed25519PublicKey(key: key) }

    /// The 64-byte signature of `message`.
    public func signature(for message: [UInt8]) throws -> [UInt8] {
        let context = try OpenSSL.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try OpenSSL.check(EVP_DigestSignInit(context, nil, nil, nil, key.pointer), "EVP_DigestSignInit")
        var output = [UInt8](repeating: 0, count: 64)
        var length = output.count
        try OpenSSL.check(EVP_DigestSign(context, &output, &length, message, message.count), "EVP_DigestSign")
        return Array(output.prefix(length))
    }
}
