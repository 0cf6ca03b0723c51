import GatehouseOutbound
import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP
import GatehouseServer
import GatehouseTesting

/// The real server on 127.0.0.1:0 with a fresh database and data folder, in development
/// mode unless `configure` says otherwise, for end-to-end tests that drive it over loopback;
/// with `inProcess`, the same node answering in process, nothing listening (route tests).
/// Either way `transport` reaches it.
///
/// ```swift
/// let live = try await LiveServer.start(.sqlite, inProcess: true)
/// defer { live.stop() }
/// let client = APIClient(baseURL: live.baseURL, transport: live.transport)
/// ```
public final class LiveServer: @unchecked Sendable {
    public let app: GatehouseApp
    public let credentials: DevCredentials
    public let dataDir: String
    public let logs: MemoryLogSink
    /// The socket's (URLSession) or, in process, the server's own.
    public let transport: any Transport
    private let database: TestDatabase

    public var baseURL: URL { URL(string: credentials.baseURL)! }
    /// The operator API with the development admin token, over `transport`.
    package var admin: APIClient {
        APIClient(baseURL: baseURL, transport: transport).with(header: "Authorization", "Bearer \(credentials.adminToken)")
    }
    public var port: UInt16 { app.server.port }

    private init(app: GatehouseApp, credentials: DevCredentials, dataDir: String, logs: MemoryLogSink, database: TestDatabase, inProcess: Bool) {
        self.transport = inProcess ? InProcessTransport(server: app.server) : URLSessionTransport()
        self.app = app
        self.credentials = credentials
        self.dataDir = dataDir
        self.logs = logs
        self.database = database
    }

    /// - Parameter clock: a manual clock lets end-to-end tests cross expiry windows.
    public static func start(
        _ kind: TestDatabaseKind = .sqlite, clock: (any Clock)? = nil, inProcess: Bool = false, configure: (inout Settings) -> Void = { _ in }
    ) async throws -> LiveServer {
        // Migrated here, so that on PostgreSQL a schema an earlier test emptied serves (the
        // node then finds nothing to migrate). Opening waits on the database: off the
        // concurrency pool, whose few threads the servers of the tests running beside this one need.
        StallWatch.start()
        let database = try await TestDatabase.migrated(kind, GatehouseApp.migrations, clock: clock ?? SystemClock())
        let dataDir = NSTemporaryDirectory() + "gatehouse-e2e-" + UUID().uuidString
        var settings = Settings()
        settings.host = "127.0.0.1"
        settings.port = 0
        settings.threads = 2
        // Many servers run at once on one test PostgreSQL: keep each one's pool small.
        settings.databasePoolSize = 6
        settings.dataDir = dataDir
        settings.databaseURL = database.url
        settings.shutdownGrace = 2
        configure(&settings)
        let logs = MemoryLogSink()
        let app = try await offPool { [settings] in
            var environment: Environment?
            if let clock {
                let database = try GatehouseApp.openDatabase(settings)
                let random = SystemRandom()
                environment = Environment(
                    clock: clock, random: random, ids: UUIDv7Generator(clock: clock, random: random), database: database,
                    logger: Logger(minimum: .info, write: { logs.write($0) }), http: CurlHTTPClient())
            }
            let app = try GatehouseApp(settings: settings, environment: environment, logSink: logs)
            try app.start(listening: !inProcess)
            return app
        }
        // In production nothing is bootstrapped: the address, and the configured admin token.
        let credentials = settings.mode == .production
            ? DevCredentials(baseURL: "http://127.0.0.1:\(app.server.port)", adminToken: settings.adminToken ?? "", tenantId: "", applicationId: "", apiKey: "")
            : try await app.bootstrapDevelopment()
        guard let credentials else {
            throw TestSetupError("the server did not bootstrap development credentials")
        }
        return LiveServer(app: app, credentials: credentials, dataDir: dataDir, logs: logs, database: database, inProcess: inProcess)
    }

    /// Stops the server without blocking a concurrency thread, then removes its data.
    public func stop() async {
        await app.server.stop(grace: 2)
        await app.stopBackgroundWork()
        // On PostgreSQL the node's own handle is closed too, so that nothing of this test can
        // reach the schema once it serves the next test. (On SQLite it stays open, as a
        // crash would leave it: tests look at the files it keeps.)
        let nodeDatabase = app.settings.isPostgres ? app.environment.database : nil
        let (database, dataDir) = (database, dataDir)
        // Closing checkpoints and joins threads: it waits, so not on the concurrency pool.
        _ = try? await offPool {
            nodeDatabase?.close()
            database.close()
            try? FileManager.default.removeItem(atPath: dataDir)
        }
    }
}
