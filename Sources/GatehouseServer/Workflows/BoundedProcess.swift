import Foundation

/// Runs a Debian tool (`pdfinfo`, `unzip`) on a stored file with a time limit and a cap on
/// what it may print; the built-in executors read its output, never a shell.
enum BoundedProcess {
    struct Output: Sendable {
        let status: Int32
        let stdout: Data
        let truncated: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval, maxOutput: Int) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            // A thread of its own: reading a pipe blocks, and the cooperative pool is two threads here.
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(executable, arguments, timeout: timeout, maxOutput: maxOutput) })
            }
        }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], timeout: TimeInterval, maxOutput: Int) throws -> Output {
        guard let path = locate(executable) else { throw Failure(description: "\(executable) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        var collected = Data()
        var truncated = false
        let reader = stdout.fileHandleForReading
        while let piece = try? reader.read(upToCount: 64 * 1024), !piece.isEmpty {
            if collected.count + piece.count > maxOutput {
                truncated = true
                process.terminate()
                break
            }
            collected.append(piece)
        }
        process.waitUntilExit()
        timer.cancel()
        if process.terminationReason == .uncaughtSignal, !truncated { throw Failure(description: "\(executable) took longer than \(Int(timeout)) s") }
        return Output(status: process.terminationStatus, stdout: collected, truncated: truncated)
    }

    private static func locate(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
