import COpenSSL
import Foundation

// Safe: `key` is a `let` never mutated after loading; each `signature(for:)` makes its own EVP_MD_CTX, and OpenSSL 3 lets
// threads sign with one `EVP_PKEY` at once.
/// An RSA private key that signs RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3): the
/// Vonage application tokens, and service-account grants (RFC 7523) where a vendor asks for
/// RS256.
///
/// Unchecked Sendable: the key is never mutated after loading, and OpenSSL 3 lets threads
/// sign with one `EVP_PKEY` at once (each signature has its own context).
public final class RS256PrivateKey: @unchecked Sendable, CustomStringConvertible {
    private let key: OpaquePointer
    var pointer: OpaquePointer { key }

    /// Owns `key`, an RSA key that was just generated.
    init(taking key: OpaquePointer) { self.key = key }

    /// Reads an unencrypted PEM key (`PRIVATE KEY`, or `RSA PRIVATE KEY`) of 2048 bits or more.
    /// A PEM pasted into a setting with literal `\n` sequences is read as if they were newlines.
    /// Errors never quote the key.
    public init(pem: String) throws(CryptoError) {
        let text = pem.contains("\n") ? pem : pem.replacingOccurrences(of: "\\n", with: "\n")
        let bytes = Array(text.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let parsed else { throw .invalidKey("not a readable PEM private key (\(OpenSSL.drainErrors()))") }
        guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA, EVP_PKEY_get_bits(parsed) >= 2048 else {
            EVP_PKEY_free(parsed)
            throw .invalidKey("not an RSA key of at least 2048 bits")
        }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    public var description: String { "RS256PrivateKey(<redacted>)" }

    /// SHA-256 of the key's public half (its DER SubjectPublicKeyInfo) in lowercase hex: names
    /// the key, as `ssh-keygen -l` does, without revealing anything of the private half.
    public func publicKeyFingerprint() throws(CryptoError) -> String {
        do {
            return SHA256.hash(try EVPKey.subjectPublicKeyInfo(of: key)).hexString
        } catch {
            throw OpenSSL.failure("i2d_PUBKEY")
        }
    }

    /// The PKCS#1 v1.5 signature over SHA-256(`message`).
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSL.failure("RS256 signing") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw OpenSSL.failure("RS256 signing") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw OpenSSL.failure("RS256 signing") }
        var output = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &output, &length, message, message.count) == 1 else { throw OpenSSL.failure("RS256 signing") }
        return Array(output.prefix(length))
    }
}
