import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a Debian tool (`pdfinfo`, `unzip`) on a stored file with a time limit and a cap on
/// what it may print; the built-in executors read its output, never a shell. Past the limit,
/// past the cap, or when the run is cancelled (its deadline), the tool is killed outright.
enum BoundedProcess {
    struct Output: Sendable {
        let status: Int32
        let stdout: Data
        let truncated: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The running child, so that cancellation can kill it from another thread.
    final class Child: @unchecked Sendable {
        private let lock = NSLock()
        private var process: Process?
        private var killed = false
        func started(_ process: Process) -> Bool {
            lock.withLock {
                self.process = process
                return !killed
            }
        }
        /// Only a child still running is signalled, never a process id reused after it.
        func kill() {
            lock.withLock {
                killed = true
                if let process, process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
            }
        }
        func finished() { lock.withLock { process = nil } }
        var wasKilled: Bool { lock.withLock { killed } }
    }

    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval, maxOutput: Int) async throws -> Output {
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

    private static func runBlocking(
        _ executable: String, _ arguments: [String], timeout: TimeInterval, maxOutput: Int, child: Child
    ) throws -> Output {
        guard let path = locate(executable) else { throw Failure(description: "\(executable) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard child.started(process) else {
            child.kill()
            process.waitUntilExit()
            throw CancellationError()
        }
        let timer = DispatchWorkItem { child.kill() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        var collected = Data()
        var truncated = false
        let reader = stdout.fileHandleForReading
        while let piece = try? reader.read(upToCount: 64 * 1024), !piece.isEmpty {
            if collected.count + piece.count > maxOutput {
                truncated = true
                child.kill()
                break
            }
            collected.append(piece)
        }
        // Closing the read end also ends a writer that is still blocked on a full pipe.
        try? reader.close()
        process.waitUntilExit()
        child.finished()
        timer.cancel()
        if child.wasKilled, !truncated { throw Failure(description: "\(executable) took longer than \(Int(timeout)) s") }
        return Output(status: process.terminationStatus, stdout: collected, truncated: truncated)
    }

    private static func locate(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
