import COpenSSL
import Foundation

extension SHA256 {
    /// The digest of a file and its size, read in 64 KiB pieces (never the whole file in memory).
    public static func hash(fileAt url: URL) throws -> (digest: [UInt8], size: Int64) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let context = try OpenSSL.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try OpenSSL.check(EVP_DigestInit_ex(context, EVP_sha256(), nil), "EVP_DigestInit_ex(SHA-256)")
        var size: Int64 = 0
        while let piece = try handle.read(upToCount: 64 * 1024), !piece.isEmpty {
            size += Int64(piece.count)
            try piece.withUnsafeBytes { bytes in
                try OpenSSL.check(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count), "EVP_DigestUpdate(SHA-256)")
            }
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        try OpenSSL.check(EVP_DigestFinal_ex(context, &output, &length), "EVP_DigestFinal_ex(SHA-256)")
        return (Array(output.prefix(Int(length))), size)
    }
}
