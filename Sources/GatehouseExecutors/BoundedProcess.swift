import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs a Debian tool (`pdfinfo`, `unzip`) on a stored file with a time limit and a cap on
/// what it may print; the built-in executors read its output, never a shell. Past the limit,
/// past the cap, or when the run is cancelled (its deadline), the tool is killed outright.
package enum BoundedProcess {
    package struct Output: Sendable {
        let status: Int32
        let stdout: Data
        let truncated: Bool
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    // Safe: `pid` and `killed` are only read and written under `lock` (so `kill` never signals a pid already reaped).
    /// The running child, so that cancellation can kill it from another thread.
    package final class Child: @unchecked Sendable {
        private let lock = NSLock()
        private var pid: pid_t?
        private var killed = false
        func started(_ pid: pid_t) -> Bool {
            lock.withLock {
                self.pid = pid
                return !killed
            }
        }
        /// Only a child not yet reaped is signalled, never a process id reused after it.
        func kill() {
            lock.withLock {
                killed = true
                if let pid { _ = Glibc.kill(pid, SIGKILL) }
            }
        }
        func reaped() { lock.withLock { pid = nil } }
        var wasKilled: Bool { lock.withLock { killed } }
    }

    package static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval, maxOutput: Int) async throws -> Output {
        let child = Child()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A thread of its own: reading a pipe blocks, and the cooperative pool is two threads here.
                Thread.detachNewThread {
                    continuation.resume(with: Result {
                        try runBlocking(executable, arguments, timeout: timeout, maxOutput: maxOutput, child: child)
                    })
                }
            }
        } onCancel: {
            child.kill()
        }
    }

    // posix_spawn rather than Foundation's Process: on Linux, Process.run corrupts memory once
    // the server holds more than 1024 descriptors (it builds an fd_set of them), which a busy
    // server with thousands of connections does. The child gets /dev/null for stdin and stderr,
    // the pipe for stdout, and nothing else: close-on-exec is up to every library that opens a
    // descriptor in this process, and one that forgets would hand a tool a socket or the database.
    private static func runBlocking(
        _ executable: String, _ arguments: [String], timeout: TimeInterval, maxOutput: Int, child: Child
    ) throws -> Output {
        guard let path = locate(executable) else { throw Failure(description: "\(executable) is not installed") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "cannot make a pipe for \(executable)") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // Neither end leaks into other children; dup2 gives this child its stdout without the flag.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Last: the dup2 above still needs the write end, which this then closes in the child.
        ChildDescriptors.closeAllButStandard(&actions)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw Failure(description: "\(executable) could not be started (\(String(cString: strerror(spawned))))")
        }
        func reap() -> Int32 {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            child.reaped()
            return (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        }
        guard child.started(pid) else {
            child.kill()
            close(readEnd)
            _ = reap()
            throw CancellationError()
        }
        let timer = DispatchWorkItem { child.kill() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        var collected = Data()
        var truncated = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            if collected.count + count > maxOutput {
                truncated = true
                child.kill()
                break
            }
            collected.append(buffer, count: count)
        }
        // Closing the read end also ends a writer that is still blocked on a full pipe.
        close(readEnd)
        let status = reap()
        timer.cancel()
        if child.wasKilled, !truncated { throw Failure(description: "\(executable) took longer than \(Int(timeout)) s") }
        return Output(status: status, stdout: collected, truncated: truncated)
    }

    private static func locate(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
