import COpenSSL
import Foundation

// Safe: `pointer` is a `let` whose key is never mutated after construction, and OpenSSL 3 lets threads use one `EVP_PKEY`
// at once; it is freed only in `deinit`.
/// Owns one `EVP_PKEY`; the Swift key types are value types over this reference.
///
/// Unchecked Sendable: the key is never mutated after construction, and OpenSSL 3 allows
/// concurrent signing and verification with one `EVP_PKEY` (each call makes its own context).
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`; it is freed when this object goes away.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The curve name (`prime256v1`, `secp384r1`, …), or nil for a key that is not EC.
    var curveName: String? {
        guard EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC else { return nil }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            OpenSSL.drainErrors()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `signature` is a signature of SHA-256(`message`) by this key: DER ECDSA for an
    /// EC key, PKCS#1 v1.5 for RSA. Any failure, a library error included, answers false: a
    /// verifier fails closed.
    func verifySHA256(signature: some DataProtocol, message: some DataProtocol) -> Bool {
        defer { OpenSSL.drainErrors() }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        return withContiguousBytes(signature) { signature in
            withContiguousBytes(message) { message in
                EVP_DigestVerify(
                    context,
                    signature.baseAddress?.assumingMemoryBound(to: UInt8.self), signature.count,
                    message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count
                ) == 1
            }
        }
    }

    /// The DER SubjectPublicKeyInfo of the key (its public half only).
    func subjectPublicKeyInfo() throws -> [UInt8] {
        try Self.subjectPublicKeyInfo(of: pointer)
    }

    /// The DER SubjectPublicKeyInfo of the key `pointer` holds (its public half only).
    static func subjectPublicKeyInfo(of pointer: OpaquePointer) throws -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw OpenSSL.failure("i2d_PUBKEY") }
        var output = [UInt8](repeating: 0, count: Int(length))
        try output.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard i2d_PUBKEY(pointer, &cursor) == length else { throw OpenSSL.failure("i2d_PUBKEY") }
        }
        return output
    }

    /// Parses a DER SubjectPublicKeyInfo, rejecting trailing bytes.
    static func parse(subjectPublicKeyInfo der: some DataProtocol) throws -> EVPKey {
        try withContiguousBytes(der) { bytes in
            var cursor: UnsafePointer<UInt8>? = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let start = cursor
            let key = try OpenSSL.check(d2i_PUBKEY(nil, &cursor, bytes.count), "d2i_PUBKEY")
            let parsed = EVPKey(taking: key)
            guard let cursor, let start, cursor - start == bytes.count else {
                throw CryptoError.invalidKey("trailing bytes after SubjectPublicKeyInfo")
            }
            return parsed
        }
    }
}
