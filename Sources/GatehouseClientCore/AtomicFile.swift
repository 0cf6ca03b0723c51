import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file replacement and an advisory lock, shared by the SDK's file-backed stores; each store
/// turns `Failure` into its own error type.
package enum AtomicFile {
    /// What went wrong, with the `errno` of the call that failed.
    package struct Failure: Error, CustomStringConvertible {
        package let message: String
        package let status: Int32
        package var description: String { "\(message) (errno \(status))" }
    }

    /// Writes `data` to a 0600 temporary file beside `url`, syncs it and renames it over `url`:
    /// a reader sees the old content or the new, never half, and a crash right after keeps the new.
    package static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("cannot chmod \(temporary.path)") }
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw failure("cannot write \(temporary.path)")
                    }
                    offset += count
                }
            }
            guard fsync(descriptor) == 0 else { throw failure("cannot sync \(temporary.path)") }
        }
        guard rename(temporary.path, url.path) == 0 else { throw failure("cannot replace \(url.path)") }
        renamed = true
    }

    /// The file's bytes, or nil when it does not exist.
    package static func read(_ url: URL) throws -> Data? {
        do {
            return try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw failure("cannot read \(url.path): \(error)")
        }
    }

    /// Runs `body` holding an exclusive `flock` on `lockURL`, so two processes sharing the files never
    /// interleave a read-modify-write. Non-blocking tries with short sleeps keep the cooperative pool free.
    package static func withLock<T>(_ lockURL: URL, _ body: () throws -> T) async throws -> T {
        try? FileManager.default.createDirectory(at: lockURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(lockURL.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open \(lockURL.path)") }
        // Closing the descriptor releases the lock on every path.
        defer { close(descriptor) }
        var delay: UInt64 = 1_000_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("cannot lock \(lockURL.path)") }
            try await Task.sleep(nanoseconds: delay)
            delay = min(delay * 2, 50_000_000)
        }
        return try body()
    }

    private static func failure(_ message: String) -> Failure { Failure(message: message, status: errno) }
}

/// `write(2)`; the bare name could resolve to a method of the calling type.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
