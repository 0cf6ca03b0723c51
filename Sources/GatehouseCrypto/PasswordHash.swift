import COpenSSL
import Foundation
import GatehouseFormats

/// Passwords kept as scrypt (RFC 7914) hashes computed by OpenSSL's `EVP_PBE_scrypt`, a
/// memory-hard KDF: `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, salt and hash in base64 without
/// padding as PHC strings write them. Only comparison is ever needed, so the password is
/// never kept; a check compares in constant time.
public enum PasswordHash {
    /// scrypt's cost: N = 2^logN, block size r, parallelism p.
    public struct Cost: Sendable, Equatable {
        public let logN: Int
        public let r: Int
        public let p: Int
        public init(logN: Int, r: Int, p: Int) {
            self.logN = logN
            self.r = r
            self.p = p
        }
        /// N = 2^15, r = 8, p = 1: 32 MiB per hash, OWASP's recommended minimum for scrypt.
        public static let standard = Cost(logN: 15, r: 8, p: 1)

        /// What a stored hash may ask for: enough for any sensible cost, never a denial of service
        /// (at most 128 MiB of scrypt's array, 128·r·N, and N·r·p at most 2^21, eight times the standard's work).
        var isAcceptable: Bool {
            guard (10...20).contains(logN), (1...16).contains(r), (1...4).contains(p) else { return false }
            let n = 1 << logN
            return 128 * r * n <= 128 << 20 && n * r * p <= 1 << 21
        }
        /// The memory scrypt needs (128·r·N bytes, and its working blocks), with room to spare.
        var memory: UInt64 { UInt64(128 * r) * (UInt64(1) << UInt64(logN)) + UInt64(256 * r * p) + (1 << 20) }
    }

    static let saltLength = 16
    static let hashLength = 32

    /// A new hash of `password` under a fresh random salt.
    public static func make(_ password: String, cost: Cost = .standard, random: any RandomSource) -> String {
        precondition(cost.isAcceptable, "scrypt cost out of range")
        let salt = random.bytes(saltLength)
        let hash = derive(password, salt: salt, cost: cost, length: hashLength)
        return "$scrypt$ln=\(cost.logN),r=\(cost.r),p=\(cost.p)$" + unpadded(salt) + "$" + unpadded(hash)
    }

    /// Whether `password` is the one `encoded` was made from; false for anything that is not
    /// such a hash (or asks for a cost out of range).
    public static func verify(_ password: String, against encoded: String) -> Bool {
        guard let (cost, salt, expected) = parse(encoded) else { return false }
        return constantTimeEquals(derive(password, salt: salt, cost: cost, length: expected.count), expected)
    }

    /// Whether `encoded` was made with a cost other than `cost` (hash it again at the next sign-in).
    public static func needsRehash(_ encoded: String, cost: Cost = .standard) -> Bool {
        parse(encoded)?.cost != cost
    }

    /// scrypt's output itself (RFC 7914 §2), for the RFC's test vectors.
    static func derive(_ password: String, salt: [UInt8], cost: Cost, length: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        let utf8 = Array(password.utf8)
        OpenSSL.mustSucceed {
            try utf8.withUnsafeBufferPointer { pass in
                try salt.withUnsafeBufferPointer { saltBytes in
                    try OpenSSL.check(
                        EVP_PBE_scrypt(
                            pass.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, pass.count,
                            saltBytes.baseAddress, saltBytes.count, UInt64(1) << UInt64(cost.logN), UInt64(cost.r), UInt64(cost.p), cost.memory,
                            &output, length),
                        "EVP_PBE_scrypt")
                }
            }
        }
        return output
    }

    private static func parse(_ encoded: String) -> (cost: Cost, salt: [UInt8], hash: [UInt8])? {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var values: [String: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let field = pair.split(separator: "=", maxSplits: 1)
            guard field.count == 2, let value = Int(field[1]) else { return nil }
            values[String(field[0])] = value
        }
        guard let logN = values["ln"], let r = values["r"], let p = values["p"] else { return nil }
        let cost = Cost(logN: logN, r: r, p: p)
        guard cost.isAcceptable, let salt = padded(parts[3]), let hash = padded(parts[4]), salt.count >= 8, (16...64).contains(hash.count) else {
            return nil
        }
        return (cost, salt, hash)
    }

    private static func unpadded(_ bytes: [UInt8]) -> String { Base64.encode(bytes).replacingOccurrences(of: "=", with: "") }

    private static func padded(_ text: Substring) -> [UInt8]? {
        Base64.decode(text + String(repeating: "=", count: (4 - text.count % 4) % 4))
    }
}
