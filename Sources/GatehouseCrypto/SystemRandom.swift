import COpenSSL

/// Cryptographically secure randomness from OpenSSL's DRBG (`RAND_bytes`).
public struct SystemRandom: RandomSource {
    /// Creates the system source; it holds no state of its own.
    public init() {}

    /// Returns `count` bytes from the CSPRNG.
    ///
    /// Stops the process if the CSPRNG fails: that means it could not be seeded, and handing out
    /// predictable codes or tokens would be worse than not serving at all.
    public func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "cannot draw a negative number of bytes")
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let chunk = min(count - offset, Int(Int32.max))
            let status = output.withUnsafeMutableBufferPointer {
                RAND_bytes($0.baseAddress! + offset, Int32(chunk))
            }
            guard status == 1 else {
                fatalError("GatehouseCrypto: RAND_bytes failed: \(OpenSSL.drainErrors())")
            }
            offset += chunk
        }
        return output
    }
}
