import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its output collected from a pipe.
/// (Foundation's `Process.run` was seen to crash when tests start processes while many
/// other tests run in parallel; spawning directly avoids that.)
///
/// Two threads of its own block on the child: one reads its output, one waits for its exit
/// (and then for the output's end), so that tests await those events instead of polling.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var output = Data()
    private var status: Int32?
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0

    /// Someone waiting for the exit or for a line of output; resumed once, by the event or
    /// by its deadline.
    private struct Waiter {
        let ready: (_ text: String, _ status: Int32?) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    public init(path: String, arguments: [String], environment: [String: String]) throws {
        let (child, readFD) = try Command.spawn(path, arguments, environment: environment, standardError: .withOutput)
        pid = child
        let outputEnded = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(readFD, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                changed { $0.output.append(buffer, count: count) }
            }
            close(readFD)
            outputEnded.signal()
        }
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) < 0, errno == EINTR {}
            // The exit is reported with all the output: the pipe ends once every writer
            // (the child and any process it left behind) has closed it.
            _ = outputEnded.wait(timeout: .now() + 5)
            changed { $0.status = Command.exitStatus(raw) }
        }
    }

    /// Everything the process wrote to stdout and stderr so far.
    public var text: String { lock.withLock { String(decoding: output, as: UTF8.self) } }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// The exit status once the process has exited, or `nil` if it is still running after
    /// `seconds` (so a test can give up).
    public func wait(seconds: Double) async -> Int32? {
        await until(seconds: seconds) { _, status in status != nil }
        return lock.withLock { status }
    }

    /// The first line of output that `matches`, once written; `nil` if the process exits or
    /// `seconds` pass without one.
    public func line(within seconds: Double, where matches: @escaping (Substring) -> Bool) async -> String? {
        // Only whole lines: output may arrive in pieces, and "READY " without its port is no answer.
        let find = { (text: String) -> String? in
            guard let end = text.lastIndex(of: "\n") else { return nil }
            return text[..<end].split(separator: "\n").first(where: matches).map(String.init)
        }
        await until(seconds: seconds) { text, status in status != nil || find(text) != nil }
        return find(text)
    }

    /// Returns once `ready` holds for the output and status, or after `seconds`.
    private func until(seconds: Double, _ ready: @escaping (String, Int32?) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = lock.withLock { () -> UInt64? in
                if ready(String(decoding: output, as: UTF8.self), status) { return nil }
                nextWaiter += 1
                waiters[nextWaiter] = Waiter(ready: ready, continuation: continuation)
                return nextWaiter
            }
            guard let id else { return continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                lock.withLock { waiters.removeValue(forKey: id) }?.continuation.resume()
            }
        }
    }

    /// Applies a change under the lock, then resumes the waiters it satisfied.
    private func changed(_ change: (ChildProcess) -> Void) {
        let resumed = lock.withLock { () -> [Waiter] in
            change(self)
            let text = String(decoding: output, as: UTF8.self)
            let done = waiters.filter { $0.value.ready(text, status) }
            for key in done.keys { waiters.removeValue(forKey: key) }
            return Array(done.values)
        }
        for waiter in resumed { waiter.continuation.resume() }
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago, for a child server process.
public func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
            bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return UInt16(bigEndian: address.sin_port)
}
