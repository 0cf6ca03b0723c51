import GatehouseFormats

/// A source of random bytes, injected wherever code needs randomness so tests can replay it.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

extension RandomSource {
    /// A uniformly distributed value in `0..<bound`, without modulo bias.
    ///
    /// Draws 64-bit values and rejects the lowest `2^64 mod bound` of them, so the accepted
    /// range is an exact multiple of `bound` (the arc4random_uniform method).
    public func uniform(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "uniform(below:) needs a positive bound")
        let rejectBelow = (0 &- bound) % bound
        while true {
            let value = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if value >= rejectBelow { return value % bound }
        }
    }

    /// A decimal code of exactly `digits` digits, every code equally likely, leading zeros kept.
    public func numericCode(digits: Int) -> String {
        precondition(digits > 0, "numericCode(digits:) needs at least one digit")
        var characters: [UInt8] = []
        characters.reserveCapacity(digits)
        for _ in 0..<digits {
            characters.append(UInt8(ascii: "0") + UInt8(uniform(below: 10)))
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `byteCount` random bytes as unpadded base64url, for opaque URL-safe tokens.
    public func token(byteCount: Int = 32) -> String {
        precondition(byteCount > 0, "token(byteCount:) needs at least one byte")
        return Base64URL.encode(bytes(byteCount))
    }
}
