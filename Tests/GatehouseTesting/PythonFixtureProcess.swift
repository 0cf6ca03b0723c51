import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Python test service of `Tests/Fixtures` (the OAuth provider, the CAMARA operator) in a
/// child process on 127.0.0.1: started with `--port 0`, ready once it prints `PORT <n>`, and
/// stopped with SIGTERM (SIGKILL after 5 s), waiting until it has exited so its port is closed.
final class PythonFixtureProcess: @unchecked Sendable {
    let port: UInt16
    private let process: ChildProcess
    private let lock = NSLock()
    private var stopped = false

    private init(process: ChildProcess, port: UInt16) {
        self.process = process
        self.port = port
    }

    deinit { stop() }

    /// Starts `Fixtures/<script>` with `arguments`; `name` is for the errors, which say what to install.
    static func start(_ script: String, arguments: [String], name: String) async throws -> PythonFixtureProcess {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(script).path
        guard FileManager.default.fileExists(atPath: path) else { throw TestSetupError("\(name) not found at \(path)") }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let process = try ChildProcess(
            path: try SMTPTestServer.executable("python3"), arguments: [path, "--port", "0"] + arguments, environment: environment)
        if let line = await process.line(within: 20, where: { $0.hasPrefix("PORT ") }), let port = UInt16(line.dropFirst(5)) {
            return PythonFixtureProcess(process: process, port: port)
        }
        if let status = await process.wait(seconds: 0) {
            throw TestSetupError(
                "\(name) exited (\(status)); it needs its Python packages (scripts/install-deps.sh test installs them). Output: \(process.text)")
        }
        process.signal(SIGKILL)
        _ = await process.wait(seconds: 5)
        throw TestSetupError("\(name) did not start within 20 s. Output: \(process.text)")
    }

    /// Ends the process and waits until it has exited; later calls do nothing. Blocking, so
    /// `deinit` can use it; async callers run it through `offPool`.
    func stop() {
        let running = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard running else { return }
        process.signal(SIGTERM)
        if !Self.awaitExit(of: process.pid, seconds: 5) {
            process.signal(SIGKILL)
            _ = Self.awaitExit(of: process.pid, seconds: 5)
        }
    }

    /// Until ChildProcess's own waiting thread has reaped `pid`.
    private static func awaitExit(of pid: pid_t, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if kill(pid, 0) != 0, errno == ESRCH { return true }
            usleep(10_000)
        }
        return false
    }

    /// Everything the process wrote to stdout and stderr so far.
    var output: String { process.text }
}
