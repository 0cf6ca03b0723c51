import COpenSSL
import Foundation

/// SHA-256 (FIPS 180-4).
public enum SHA256 {
    /// Digest length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: some DataProtocol) -> [UInt8] {
        MessageDigest.hash(data, algorithm: EVP_sha256(), name: "SHA-256")
    }
}
