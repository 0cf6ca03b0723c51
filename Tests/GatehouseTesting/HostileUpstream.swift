import Foundation
import GatehouseDatabase

/// An upstream that misbehaves on purpose (`Tests/Fixtures/hostile-upstream/hostile.py`, the
/// standard library only): silent, trickling, 401 with `WWW-Authenticate`, endless bodies,
/// resets, redirects, header floods. Its paths are listed in the script.
///
/// ```swift
/// let upstream = try await HostileUpstream.start()
/// defer { upstream.stop() }
/// let url = upstream.url("/unauthorized/basic")
/// ```
public final class HostileUpstream: @unchecked Sendable {
    private let process: PythonFixtureProcess
    public var port: UInt16 { process.port }

    private init(process: PythonFixtureProcess) { self.process = process }

    public static func start() async throws -> HostileUpstream {
        HostileUpstream(process: try await PythonFixtureProcess.start("hostile-upstream/hostile.py", arguments: [], name: "the hostile upstream"))
    }

    /// `path` (with its query) on this upstream, by address.
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }

    /// Ends the process on a thread of its own: stopping waits for the exit, and a test's
    /// `defer` runs on the concurrency pool, which a wait would hold from every other test.
    public func stop() {
        let process = self.process
        BlockingThreadPool.tests.run { process.stop() }
    }
}
