import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log lines go.
public protocol LogSink: Sendable {
    func write(_ line: String)
}

// Safe: `buffer` is only read and written under `lock` (`flush` writes to `descriptor` with it held); `descriptor` is a
// `let`, and `timer` is set once, in `init`, and never read.
/// Appends lines to a file descriptor through a buffer, so a busy server makes one
/// `write(2)` per batch instead of one per request. Flushes at 64 KiB, every 200 ms,
/// and on `flush()`.
public final class LineWriter: LogSink, @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var timer: (any DispatchSourceTimer)?

    public static let standardOutput = LineWriter(descriptor: STDOUT_FILENO)
    public static let standardError = LineWriter(descriptor: STDERR_FILENO)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(64 * 1024)
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
        self.timer = timer
    }

    /// Opens (appending) or creates a log file.
    public convenience init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd)
    }

    public func write(_ line: String) {
        lock.lock()
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        let full = buffer.count >= 64 * 1024
        lock.unlock()
        if full { flush() }
    }

    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

// Safe: `stored` is only read and written under `lock`.
/// Keeps lines in memory; for tests.
public final class MemoryLogSink: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    public init() {}
    public func write(_ line: String) { lock.withLock { stored.append(line) } }
    public var lines: [String] { lock.withLock { stored } }
}
