import Foundation

// Safe: `counter` and `buffer` are only read and written under `lock`; `seed` is an immutable `let`.
/// Deterministic pseudo-random bytes for tests only: never use it to make codes, tokens or keys.
///
/// The stream is SHA-256(seed ‖ counter) for counter = 0, 1, 2, … (a big-endian UInt64),
/// concatenated. Bytes are handed out in order regardless of how calls split them, so
/// `bytes(3) + bytes(5)` equals `bytes(8)` from a fresh source with the same seed. It is a
/// reference type: copies share one position in the stream, as an injected dependency should.
public final class SeededRandom: RandomSource, @unchecked Sendable {
    private let seed: [UInt8]
    // Guarded by `lock`; tests may share one source across concurrent tasks.
    private var counter: UInt64 = 0
    private var buffer: [UInt8] = []
    private let lock = NSLock()

    /// Creates a stream from arbitrary seed bytes.
    public init(seed: some DataProtocol) {
        self.seed = Array(seed)
    }

    /// Creates a stream from a 64-bit seed (its big-endian bytes).
    public convenience init(seed: UInt64) {
        self.init(seed: withUnsafeBytes(of: seed.bigEndian) { Array($0) })
    }

    /// Returns the next `count` bytes of the stream.
    public func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "cannot draw a negative number of bytes")
        lock.lock()
        defer { lock.unlock() }
        while buffer.count < count {
            let block = seed + withUnsafeBytes(of: counter.bigEndian) { Array($0) }
            buffer.append(contentsOf: SHA256.hash(block))
            counter += 1
        }
        let output = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        return output
    }
}
