import COpenSSL
import Foundation

/// MD5 (RFC 1321), kept only because a vendor protocol's Content-MD5 header needs it.
///
/// MD5 is broken for collision resistance: never use it for signatures, passwords or integrity
/// against an attacker. It comes from OpenSSL's default provider.
public enum MD5 {
    /// Digest length in bytes.
    public static let byteCount = 16

    /// Returns the 16-byte MD5 digest of `data`.
    public static func hash(_ data: some DataProtocol) -> [UInt8] {
        MessageDigest.hash(data, algorithm: EVP_md5(), name: "MD5")
    }
}
