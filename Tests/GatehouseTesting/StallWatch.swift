import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reports a test process whose concurrency pool has run nothing for 20 seconds, with every
/// thread's stack (through `gdb`), once per run. Tests block that pool's few threads when they
/// wait synchronously, and the servers of the tests beside them then answer nothing: what
/// blocked it shows in the stacks of the test run's output.
public enum StallWatch {
    private static let started: Void = {
        let beats = Beats()
        Thread.detachNewThread {
            while true {
                Thread.sleep(forTimeInterval: 1)
                Task.detached { beats.beat() }
                let quiet = beats.quietSeconds
                if quiet > 20 { return report(quiet: quiet) }
            }
        }
    }()

    /// Starts the watch, once for the process.
    public static func start() { _ = started }

    // Safe: `last` is read and written under `lock` only.
    private final class Beats: @unchecked Sendable {
        private let lock = NSLock()
        private var last = DispatchTime.now().uptimeNanoseconds
        func beat() { lock.withLock { last = DispatchTime.now().uptimeNanoseconds } }
        var quietSeconds: Int { lock.withLock { Int((DispatchTime.now().uptimeNanoseconds - last) / 1_000_000_000) } }
    }

    /// gdb stops every thread of this process while it reads them, this one too: its output
    /// goes to a file, not to a pipe this thread would have to drain meanwhile.
    private static func report(quiet: Int) {
        var message = "StallWatch: the concurrency pool ran nothing for \(quiet) s; every thread's stack follows.\n"
        let file = NSTemporaryDirectory() + "gatehouse-stall-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: file) }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") {
            _ = try? Command.run("/bin/sh", ["-c", "exec /usr/bin/gdb -p \(getpid()) -batch -ex 'thread apply all bt 40' >'\(file)' 2>&1"])
            message += (try? String(contentsOfFile: file, encoding: .utf8)) ?? "(gdb wrote nothing)\n"
        } else {
            message += "(gdb is not installed: no stacks)\n"
        }
        FileHandle.standardError.write(Data(message.utf8))
    }
}
