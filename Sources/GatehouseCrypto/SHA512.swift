import COpenSSL
import Foundation

/// SHA-512 (FIPS 180-4).
public enum SHA512 {
    /// Digest length in bytes.
    public static let byteCount = 64

    /// Returns the 64-byte SHA-512 digest of `data`.
    public static func hash(_ data: some DataProtocol) -> [UInt8] {
        MessageDigest.hash(data, algorithm: EVP_sha512(), name: "SHA-512")
    }
}
