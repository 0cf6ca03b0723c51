import COpenSSL
import Foundation

/// HMAC (RFC 2104) over SHA-2 (and SHA-1 for vendor protocols), computed by OpenSSL's `HMAC()`.
public enum HMAC {
    /// Returns HMAC-SHA-1 of `message` under `key` (20 bytes). Only for vendor protocols
    /// that fixed it on the wire (Twilio's `X-Twilio-Signature`); new designs use SHA-256.
    public static func sha1(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        authenticate(key: key, message: message, algorithm: EVP_sha1(), name: "HMAC-SHA-1")
    }

    /// Returns HMAC-SHA-256 of `message` under `key` (32 bytes).
    public static func sha256(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        authenticate(key: key, message: message, algorithm: EVP_sha256(), name: "HMAC-SHA-256")
    }

    /// Returns HMAC-SHA-512 of `message` under `key` (64 bytes).
    public static func sha512(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        authenticate(key: key, message: message, algorithm: EVP_sha512(), name: "HMAC-SHA-512")
    }

    private static func authenticate(
        key: some DataProtocol, message: some DataProtocol, algorithm: OpaquePointer, name: String
    ) -> [UInt8] {
        OpenSSL.mustSucceed {
            try withContiguousBytes(key) { keyBytes in
                try withContiguousBytes(message) { messageBytes in
                    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
                    var length: UInt32 = 0
                    _ = try OpenSSL.check(
                        COpenSSL.HMAC(
                            algorithm, keyBytes.baseAddress, Int32(keyBytes.count),
                            messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                            &output, &length
                        ),
                        name
                    )
                    return Array(output.prefix(Int(length)))
                }
            }
        }
    }
}
