import COpenSSL
import Foundation

/// One-shot EVP digest shared by `SHA256`, `SHA512` and `MD5`.
enum MessageDigest {
    /// Hashes every region of `data` without first joining them into one buffer.
    static func hash(_ data: some DataProtocol, algorithm: OpaquePointer, name: String) -> [UInt8] {
        OpenSSL.mustSucceed {
            let context = try OpenSSL.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
            defer { EVP_MD_CTX_free(context) }
            try OpenSSL.check(EVP_DigestInit_ex(context, algorithm, nil), "EVP_DigestInit_ex(\(name))")
            for region in data.regions {
                try region.withUnsafeBytes { bytes in
                    try OpenSSL.check(
                        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count), "EVP_DigestUpdate(\(name))"
                    )
                }
            }
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            try OpenSSL.check(EVP_DigestFinal_ex(context, &output, &length), "EVP_DigestFinal_ex(\(name))")
            return Array(output.prefix(Int(length)))
        }
    }
}
