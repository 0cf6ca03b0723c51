import COpenSSL
import Foundation

/// Memory BIOs, the in-memory streams OpenSSL's PEM and name-printing functions read and write.
enum MemoryBIO {
    /// Runs `body` with a read-only memory BIO over `text`'s UTF-8 bytes.
    static func reading<R>(_ text: String, _ body: (OpaquePointer) throws -> R) throws -> R {
        let bytes = Array(text.utf8)
        return try withContiguousBytes(bytes) { buffer in
            let bio = try OpenSSL.check(BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)), "BIO_new_mem_buf")
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Collects everything written to a fresh memory BIO by `body` as a string.
    static func collecting(_ body: (OpaquePointer) throws -> Void) throws -> String {
        let bio = try OpenSSL.check(BIO_new(BIO_s_mem()), "BIO_new")
        defer { BIO_free(bio) }
        try body(bio)
        var output = [UInt8](repeating: 0, count: BIO_ctrl_pending(bio))
        let read = output.isEmpty ? 0 : BIO_read(bio, &output, Int32(output.count))
        return String(decoding: output.prefix(Int(max(read, 0))), as: UTF8.self)
    }
}
