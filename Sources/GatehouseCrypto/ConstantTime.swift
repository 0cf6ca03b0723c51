import COpenSSL
import Foundation

/// Compares two byte strings in time that depends only on their lengths, never their contents.
///
/// Different lengths return false, but only after a full-length comparison of `lhs` with itself,
/// so a length mismatch takes as long as a content mismatch of the same size. Lengths are not
/// secret here (MACs and token hashes have fixed sizes).
public func constantTimeEquals(_ lhs: some DataProtocol, _ rhs: some DataProtocol) -> Bool {
    withContiguousBytes(lhs) { left in
        withContiguousBytes(rhs) { right in
            guard left.count == right.count else {
                _ = CRYPTO_memcmp(left.baseAddress, left.baseAddress, left.count)
                return false
            }
            return CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
        }
    }
}
