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
            var reported = false
            while !reported {
                Thread.sleep(forTimeInterval: 1)
                Task.detached { beats.beat() }
                guard beats.quietFor > 20 else { continue }
                reported = true
                report(quiet: beats.quietFor)
            }
        }
    }()

    /// Starts the watch, once for the process.
    public static func start() { _ = started }

    // Safe: `last` is read and written under `lock` only.
    private final class Beats: @unchecked Sendable {
        private let lock = NSLock()
        private var last = Date()
        func beat() { lock.withLock { last = Date() } }
        var quietFor: TimeInterval { lock.withLock { Date().timeIntervalSince(last) } }
    }

    private static func report(quiet: TimeInterval) {
        var message = "StallWatch: the concurrency pool ran nothing for \(Int(quiet)) s; every thread's stack follows.\n"
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"),
            let stacks = try? Command.run("/usr/bin/gdb", ["-p", "\(getpid())", "-batch", "-ex", "thread apply all bt 40"])
        {
            message += String(decoding: stacks.output, as: UTF8.self)
        } else {
            message += "(gdb is not installed: no stacks)\n"
        }
        FileHandle.standardError.write(Data(message.utf8))
    }
}
