import COpenSSL
import Foundation
import GatehouseFormats

/// Seals short secrets for storage with AES-256-GCM (OpenSSL EVP): a random 96-bit nonce per
/// seal, a 128-bit tag, and associated data that binds a sealed value to where it is kept
/// (a tenant and a row), so a value copied to another row does not open there.
///
/// Sealed text is `v1.` followed by base64url(nonce ‖ ciphertext ‖ tag).
public struct SecretBox: Sendable {
    private let key: [UInt8]

    /// A box over a 32-byte key.
    public init(key: [UInt8]) throws {
        guard key.count == 32 else { throw CryptoError.invalidKey("an AES-256 key is 32 bytes, not \(key.count)") }
        self.key = key
    }

    /// A box over a key written as 64 hex digits or as base64 of 32 bytes.
    public init(text: String) throws {
        guard let key = Self.keyBytes(text: text) else { throw CryptoError.invalidKey("a secret key is 64 hex digits or base64 of 32 bytes") }
        try self.init(key: key)
    }

    /// The 32 bytes of a key written as 64 hex digits or as base64; nil for anything else.
    public static func keyBytes(text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count == 64, let bytes = [UInt8](hexString: trimmed) { return bytes }
        if let data = Data(base64Encoded: trimmed), data.count == 32 { return [UInt8](data) }
        return nil
    }

    /// A key of its own for `purpose` (HMAC-SHA-256 of the purpose under this key), so one
    /// configured secret can also sign, say, stateless challenges without reusing the sealing key.
    public func subkey(_ purpose: String) -> [UInt8] {
        HMAC.sha256(key: key, message: Array(("gatehouse subkey\n" + purpose).utf8))
    }

    /// Seals `plaintext`; `context` must be given again to open it.
    public func seal(_ plaintext: String, context: String) -> String {
        let nonce = SystemRandom().bytes(12)
        let sealed = OpenSSL.mustSucceed { try crypt(encrypt: true, nonce: nonce, input: Array(plaintext.utf8), context: context, tag: nil) }
        return "v1." + Base64URL.encode(nonce + sealed.output + sealed.tag)
    }

    /// Opens a value `seal` made with the same key and context; nil when it was made under
    /// another key or context, or altered.
    public func open(_ sealed: String, context: String) -> String? {
        guard sealed.hasPrefix("v1."), let bytes = Base64URL.decode(sealed.dropFirst(3)), bytes.count >= 28 else { return nil }
        let nonce = Array(bytes[0..<12])
        let tag = Array(bytes[(bytes.count - 16)...])
        let body = Array(bytes[12..<(bytes.count - 16)])
        guard let opened = try? crypt(encrypt: false, nonce: nonce, input: body, context: context, tag: tag) else { return nil }
        return String(bytes: opened.output, encoding: .utf8)
    }

    private func crypt(encrypt: Bool, nonce: [UInt8], input: [UInt8], context: String, tag: [UInt8]?) throws -> (output: [UInt8], tag: [UInt8]) {
        let operation = encrypt ? "AES-256-GCM seal" : "AES-256-GCM open"
        let context = Array(context.utf8)
        let cipher = try OpenSSL.check(EVP_CIPHER_CTX_new(), operation)
        defer { EVP_CIPHER_CTX_free(cipher) }
        let initialise = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
        try OpenSSL.check(initialise(cipher, EVP_aes_256_gcm(), nil, nil, nil), operation)
        try OpenSSL.check(EVP_CIPHER_CTX_ctrl(cipher, EVP_CTRL_GCM_SET_IVLEN, 12, nil), operation)
        try OpenSSL.check(initialise(cipher, nil, nil, key, nonce), operation)
        let update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate
        var length: Int32 = 0
        if !context.isEmpty {
            try OpenSSL.check(update(cipher, nil, &length, context, Int32(context.count)), operation)
        }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        if !input.isEmpty {
            try OpenSSL.check(update(cipher, &output, &written, input, Int32(input.count)), operation)
        }
        var tagBytes = tag ?? [UInt8](repeating: 0, count: 16)
        if !encrypt {
            try OpenSSL.check(EVP_CIPHER_CTX_ctrl(cipher, EVP_CTRL_GCM_SET_TAG, 16, &tagBytes), operation)
        }
        var final: Int32 = 0
        let finish = encrypt ? EVP_EncryptFinal_ex : EVP_DecryptFinal_ex
        let finished = output.withUnsafeMutableBufferPointer { buffer in finish(cipher, buffer.baseAddress! + Int(written), &final) }
        // A failed final on decrypt is a tag mismatch: the value was altered or sealed elsewhere.
        try OpenSSL.check(finished, operation)
        if encrypt {
            try OpenSSL.check(EVP_CIPHER_CTX_ctrl(cipher, EVP_CTRL_GCM_GET_TAG, 16, &tagBytes), operation)
        }
        return (Array(output.prefix(Int(written + final))), tagBytes)
    }
}
