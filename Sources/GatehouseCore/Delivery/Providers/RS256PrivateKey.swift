import COpenSSL
import Foundation

/// An RSA private key that signs RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3), for
/// the Vonage application tokens. GatehouseCrypto signs only ES256 and HS256, and nothing else
/// in Gatehouse needs RSA, so the key lives beside its one user.
///
/// Unchecked Sendable: the key is never mutated after loading, and OpenSSL 3 lets threads
/// sign with one `EVP_PKEY` at once (each signature has its own context).
final class RS256PrivateKey: @unchecked Sendable, CustomStringConvertible {
    private let key: OpaquePointer

    /// Reads an unencrypted PEM key (`PRIVATE KEY` as Vonage issues it, or `RSA PRIVATE KEY`).
    /// A PEM pasted into a setting with literal `\n` sequences is read as if they were newlines.
    /// Errors never quote the key.
    init(pem: String) throws {
        let text = pem.contains("\n") ? pem : pem.replacingOccurrences(of: "\\n", with: "\n")
        let bytes = Array(text.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let parsed else { throw DeliveryError("Vonage private key is not a readable PEM private key (\(Self.drainErrors()))") }
        guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA, EVP_PKEY_get_bits(parsed) >= 2048 else {
            EVP_PKEY_free(parsed)
            throw DeliveryError("Vonage private key must be an RSA key of at least 2048 bits")
        }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    var description: String { "RS256PrivateKey(<redacted>)" }

    /// The PKCS#1 v1.5 signature over SHA-256(`message`).
    func signature(for message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw DeliveryError("RS256 signing failed: \(Self.drainErrors())") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw DeliveryError("RS256 signing failed: \(Self.drainErrors())")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw DeliveryError("RS256 signing failed: \(Self.drainErrors())")
        }
        var output = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &output, &length, message, message.count) == 1 else {
            throw DeliveryError("RS256 signing failed: \(Self.drainErrors())")
        }
        return Array(output.prefix(length))
    }

    /// The oldest queued OpenSSL error (the root cause); the queue is left empty so a later
    /// call on this thread is not blamed for it.
    private static func drainErrors() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error queued" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
