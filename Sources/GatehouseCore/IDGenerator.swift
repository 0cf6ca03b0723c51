import Foundation
import GatehouseCrypto

/// Makes identifiers for new rows.
public protocol IDGenerator: Sendable {
    func next() -> UUID
}

// Safe: `lastMillis` and `counter` are only read and written under `lock`; `clock` and `random` are `let`s of Sendable
// types.
/// RFC 9562 UUIDv7: 48 bits of Unix milliseconds, then random bits. Ids made in the same
/// millisecond still sort in creation order: the 12-bit `rand_a` field counts up.
public final class UUIDv7Generator: IDGenerator, @unchecked Sendable {
    private let clock: any Clock
    private let random: any RandomSource
    private let lock = NSLock()
    private var lastMillis: UInt64 = 0
    private var counter: UInt16 = 0

    public init(clock: any Clock, random: any RandomSource) {
        self.clock = clock
        self.random = random
    }

    public func next() -> UUID {
        var bytes = random.bytes(16)
        let now = UInt64(max(0, (clock.now.timeIntervalSince1970 * 1000).rounded(.down)))
        let (millis, sequence): (UInt64, UInt16) = lock.withLock {
            if now > lastMillis {
                lastMillis = now
                counter = UInt16(bytes[6] & 0x07) << 8 | UInt16(bytes[7])
            } else if counter < 0x0FFF {
                counter += 1
            } else {
                // Counter exhausted within one millisecond: borrow the next millisecond.
                lastMillis += 1
                counter = 0
            }
            return (lastMillis, counter)
        }
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | UInt8(sequence >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: sequence)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

// Safe: `value` is only read and written under `lock`.
/// Ids 00000000-0000-7000-8000-000000000001, …002, …: predictable in tests.
public final class SequentialIDGenerator: IDGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0

    public init() {}

    public func next() -> UUID {
        let number = lock.withLock { () -> UInt64 in
            value += 1
            return value
        }
        let tail = String(format: "%012llx", number)
        return UUID(uuidString: "00000000-0000-7000-8000-\(tail)")!
    }
}

extension UUID {
    /// The lower-case form used on the wire and in the database.
    public var lowercased: String { uuidString.lowercased() }
}
