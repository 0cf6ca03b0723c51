import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseWiring
import GatehouseCrypto
import GatehouseDatabase
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseOutbound
import GatehousePossessionEngine
import GatehousePostgres
import GatehouseSQLite
import GatehouseVerificationEngine
import GatehouseWorkflowsEngine

/// The whole server wired together: settings → database → engines → routes → HTTP.
///
/// ```swift
/// let app = try GatehouseApp(settings: settings, logSink: LineWriter.standardOutput)
/// try app.start()
/// let credentials = try await app.bootstrapDevelopment()
/// ```
public final class GatehouseApp: Sendable {
    public let settings: Settings
    public let environment: Environment
    public let directory: TenantDirectory
    public let verification: VerificationEngine
    public let accounts: AccountsEngine
    public let commerce: CommerceEngine
    public let workflows: WorkflowsEngine
    public let managedAPIs: ManagedAPIsEngine
    public let possession: PossessionEngine
    /// Runs the workflow runs executes queue; runs from `start()` to `shutdown()`.
    public let runs: WorkflowRunner
    /// Sends the codes that starts and sign-ins queue; runs from `start()` to `shutdown()`.
    public let deliveries: DeliveryDispatcher
    public let server: Server
    /// The listener of `/metrics` alone, when `metrics-port` is set.
    public let metricsServer: Server?
    /// The operators' console: its engine when operators can exist, its listener when one is configured.
    public let console: ConsoleEngine?
    public let consoleServer: Server?
    public let router = Router(bodyKind: .json)
    /// Every call this node makes to another service (libcurl, one thread and connection cache).
    public let outbound: CurlHTTPClient
    private let sweeper = LockedValue<Task<Void, Never>?>(nil)
    /// What the last Google Play sweep counted for `/metrics`, by tenant.
    private let googlePlayUnacknowledged = LockedValue<[String: Int]>([:])
    /// Settles request rate limits with the other nodes (`rate-limit-sharing cluster`).
    private let settlement: RateLimitSettlement?
    private let settler = LockedValue<Task<Void, Never>?>(nil)
    /// Tells this node's caches what the other nodes changed, and wakes its report streams
    /// for runs they changed (PostgreSQL only; one connection for both).
    private let listener: PostgresNotificationListener?
    private let dispatching = LockedValue<Task<Void, Never>?>(nil)
    private let dispatcherStopped = DispatchSemaphore(value: 0)
    private let running = LockedValue<Task<Void, Never>?>(nil)
    private let runnerStopped = DispatchSemaphore(value: 0)
    /// Wakes this node's report streams for runs other nodes changed (PostgreSQL only).
    /// The address workers call back on: `public-url`, else this server's own once it listens.
    private let ownURL = LockedValue<URL?>(nil)

    public init(settings: Settings, environment injected: Environment? = nil, logSink: any LogSink) throws {
        self.settings = settings
        // The App Store root ships inside the binary; refuse to start if it is not Apple's.
        _ = try AppleRootCertificate.pinned()
        let logger = Logger(minimum: settings.logLevel, write: { logSink.write($0) })
        try DataFolder.secure(settings, logger: logger)
        // Every engine writes through one decorator, so an operator's change and its audit row
        // share a transaction (`TransactionAppendix`).
        let database = AppendingDatabase(try injected?.database ?? Self.openDatabase(settings))
        let outbound = CurlHTTPClient()
        self.outbound = outbound
        var assembled = injected ?? .live(database: database, logger: logger, http: outbound)
        assembled.database = database
        let environment = assembled
        self.environment = environment
        _ = try DatabaseMigrator(migrations: Self.migrations, now: { environment.clock.now }).migrate(database)
        directory = TenantDirectory(environment: environment)
        let (ownURL, publicURL) = (self.ownURL, settings.publicURL.flatMap(URL.init(string:)))
        let node = NodeParts(
            settings: settings, environment: environment, logSink: logSink, outbound: outbound,
            publicURL: { publicURL ?? ownURL.withLock { $0 } ?? URL(string: "http://127.0.0.1")! })

        let verification = try VerificationAssembly(node)
        let accounts = AccountsAssembly(node, codes: verification.engine)
        let commerce = try CommerceAssembly(node, accounts: accounts.engine)
        let workflows = try WorkflowsAssembly(node, billing: commerce.engine)
        let managedAPIs = try ManagedAPIsAssembly(node)
        let possession = try PossessionAssembly(node, codes: verification.engine)
        (self.verification, deliveries, self.accounts, self.commerce) = (verification.engine, verification.dispatcher, accounts.engine, commerce.engine)
        (self.workflows, runs, self.managedAPIs, self.possession) = (workflows.engine, workflows.runner, managedAPIs.engine, possession.engine)

        settlement = settings.rateLimitSharing == .cluster
            ? RateLimitSettlement(limiter: environment.rateLimiter, database: database) : nil
        listener = settings.isPostgres ? Self.notificationListener(settings, environment: environment, hub: workflows.engine.events) : nil
        if settings.isPostgres, settings.rateLimitSharing == .node {
            // One PostgreSQL usually means several nodes, each of which would allow the full limit.
            logger.warning("request rate limits are counted per node; set rate-limit-sharing cluster when several nodes share this database")
        }

        SystemRoutes.register(on: router, database: database)
        let admin = AdminRoutes.register(on: router, directory: directory, configuredToken: settings.adminToken, logger: logger)
        verification.register(on: router, admin: admin, directory: directory, node: node)
        accounts.register(admin: admin)
        commerce.register(on: router, accounts: accounts.engine, directory: directory, node: node)
        workflows.register(on: router, admin: admin, accounts: accounts.engine, commerce: commerce.engine, node: node)
        managedAPIs.register(on: router, admin: admin, accounts: accounts.engine, node: node)
        possession.register(on: router, admin: admin, directory: directory, node: node)
        OpenAPIRoutes.register(on: router)

        let metrics = HTTPMetrics()
        let transportLog = Self.transportLog(logger)
        server = Server(
            configuration: Self.serverConfiguration(settings),
            responder: Responder(router: router, errorLog: transportLog),
            metrics: metrics, accessLog: try Self.accessLog(settings, sink: logSink), errorLog: transportLog)
        metricsServer = Self.metricsServer(
            settings, metrics: [metrics, managedAPIs.proxyMetrics],
            counters: [
                verification.engine.testNumberUses, verification.engine.deliveryReceipts, verification.engine.prefixBlocksImposed, accounts.engine.signIns,
            ],
            outbound: outbound.metrics, families: Self.databaseFamilies(database.base) + [Self.googlePlayFamily(googlePlayUnacknowledged)],
            publicRouter: router, errorLog: transportLog, logger: logger)
        (console, consoleServer) = try Self.console(
            settings, environment: environment,
            sources: ConsoleSources(
                directory: directory, verification: verification.engine, accounts: accounts.engine, commerce: commerce.engine, workflows: workflows.engine,
                managedAPIs: managedAPIs.engine, possession: possession.engine),
            errorLog: transportLog)
    }

    /// The access log the settings ask for, if any.
    static func accessLog(_ settings: Settings, sink: any LogSink) throws -> AccessLog? {
        switch settings.accessLog {
        case .off: return nil
        case .standardOutput: return AccessLog(sink: sink)
        case .file(let path):
            guard let writer = LineWriter(path: path) else { throw SettingsError("cannot open access log \(path)") }
            return AccessLog(sink: writer)
        }
    }

    /// The transport's message may quote anything; the request id is the server's own.
    static func transportLog(_ logger: Logger) -> @Sendable (TransportLogEntry) -> Void {
        { entry in logger.error(LogValue(entry.message), entry.requestID.map { ["requestId": LogValue.plain($0)] } ?? [:]) }
    }

    /// Every migration this binary knows, in order: core first, then each engine's.
    public static let migrations: [Migration] = EngineMigrations.all

    /// Opens the configured database: SQLite in the data folder unless a PostgreSQL URL is set.
    /// A new SQLite file and its folder are private (0600, 0700).
    public static func openDatabase(_ settings: Settings) throws -> any Database {
        if settings.isPostgres { return try PostgresDatabase(url: settings.databaseURL, poolSize: settings.databasePoolSize) }
        let path = settings.sqlitePath
        let folder = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) { try DataFolder.create(folder) }
        DataFolder.precreate(path)
        let database = try SQLiteDatabase(path: path)
        DataFolder.restrict(DataFolder.sqliteFiles(path))
        return database
    }

    /// Starts the listeners and the background work. `listening: false` starts the background
    /// work alone, for tests that answer requests in process (`server.respond(method:target:…)`).
    public func start(listening: Bool = true) throws {
        if listening { try startListening() }
        startSweeper()
        let (runs, runnerStopped) = (self.runs, self.runnerStopped)
        running.withLock {
            $0 = Task.detached {
                await runs.run()
                runnerStopped.signal()
            }
        }
        let (deliveries, stopped) = (self.deliveries, dispatcherStopped)
        dispatching.withLock {
            $0 = Task.detached {
                await deliveries.run()
                stopped.signal()
            }
        }
        listener?.start()
        if let settlement {
            let (interval, logger) = (settings.rateLimitSettleInterval, environment.logger)
            let task = Task.detached {
                await settlement.run(every: interval) { logger.warning("rate limit settlement failed", ["error": "\($0)"]) }
            }
            settler.withLock { $0 = task }
        }
    }

    private func startListening() throws {
        try server.start()
        // The address is the server's own, no secret: its port must survive the digit masking.
        environment.logger.info("listening", ["address": .plain("http://\(settings.host):\(server.port)")])
        ownURL.withLock { $0 = URL(string: "http://\(settings.host == "0.0.0.0" || settings.host == "::" ? "127.0.0.1" : settings.host):\(server.port)") }
        if let metricsServer {
            try metricsServer.start()
            environment.logger.info("metrics listening", ["address": .plain("http://\(settings.metricsHost):\(metricsServer.port)/metrics")])
        }
        if let consoleServer {
            try consoleServer.start()
            environment.logger.info("console listening", ["address": .plain("http://\(settings.consoleHost):\(consoleServer.port)/")])
        }
    }

    /// Stops accepting, lets in-flight requests finish, closes the database.
    /// The grace is one deadline for all of it: the requests in flight, then the deliveries
    /// in hand; a delivery cut off by it is claimed again after its lease.
    public func shutdown() {
        let deadline = DispatchTime.now() + settings.shutdownGrace
        let sweeping = sweeper.withLock { $0 }
        sweeping?.cancel()
        server.shutdown(grace: settings.shutdownGrace) { inFlight in
            environment.logger.info("listener closed", ["inFlight": .plain(String(inFlight))])
        }
        metricsServer?.shutdown(grace: 1)
        consoleServer?.shutdown(grace: 1)
        // The dispatcher finishes the deliveries in hand; whatever it has not claimed stays
        // queued for the next node or the next start of this one.
        deliveries.stop()
        runs.stop()
        if dispatching.withLock({ $0 }) != nil { _ = dispatcherStopped.wait(timeout: deadline) }
        // A run cut off here is claimed again once its lease lapses (at once on SQLite's next start).
        if running.withLock({ $0 }) != nil { _ = runnerStopped.wait(timeout: deadline) }
        let finished = DispatchSemaphore(value: 0)
        let settling = settler.withLock { $0 }
        // The sweeper's last statement and the settler's last round end before the database
        // closes; the semaphore waits on this (non-pool) thread, since shutdown is called
        // from the main thread.
        Task.detached {
            await sweeping?.value
            await Self.stop(settling)
            finished.signal()
        }
        finished.wait()
        listener?.stop()
        environment.database.close()
    }

    /// Stops the background work started by `start()` without blocking a thread (for tests,
    /// which stop the server with `server.stop`): the metrics listener, the sweeper, the
    /// dispatcher after the deliveries in hand, the last settlement, the listener's connection.
    public func stopBackgroundWork() async {
        await metricsServer?.stop(grace: 1)
        await consoleServer?.stop(grace: 1)
        await Self.stop(sweeper.withLock { $0 })
        deliveries.stop()
        runs.stop()
        await dispatching.withLock { $0 }?.value
        await running.withLock { $0 }?.value
        await Self.stop(settler.withLock { $0 })
        await listener?.stop()
    }

    private static func stop(_ task: Task<Void, Never>?) async {
        task?.cancel()
        await task?.value
    }

    /// A listener that feeds other nodes' cache invalidations to this node's caches, and their
    /// run events to this node's report streams.
    static func notificationListener(_ settings: Settings, environment: Environment, hub: RunEventHub) -> PostgresNotificationListener {
        let (invalidations, logger) = (environment.invalidations, environment.logger)
        return PostgresNotificationListener(
            url: settings.databaseURL, channel: invalidations.channel,
            received: { payload in
                if !hub.received(payload) { invalidations.received(payload) }
            },
            // Notices sent while it was away are lost: forget everything cached, and let every
            // stream read its log again.
            connected: {
                invalidations.dropEverything()
                hub.publishEverything()
            },
            failed: { logger.warning("notification listener connection failed", ["error": "\($0)"]) })
    }

    /// Housekeeping every 30 s: stale dispatches, lapsed and overdue runs, retention, old counters, ended possession flows, old passkey challenges,
    /// Google Play acknowledgements to retry and voided purchases to read.
    private func startSweeper() {
        let (engine, workflows, possession, accounts, console) = (verification, self.workflows, self.possession, self.accounts, self.console)
        let logger = environment.logger
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 30_000_000_000)
                if Task.isCancelled { return }
                do { try await engine.sweep() } catch { logger.warning("sweep failed", ["error": "\(error)"]) }
                do { try await workflows.sweep() } catch { logger.warning("workflow sweep failed", ["error": "\(error)"]) }
                do { try await possession.sweep() } catch { logger.warning("possession sweep failed", ["error": "\(error)"]) }
                do { _ = try await accounts.sweepPasskeyChallenges() } catch { logger.warning("passkey challenge sweep failed", ["error": "\(error)"]) }
                do { _ = try await console?.sweepPasskeyChallenges() } catch { logger.warning("console passkey sweep failed", ["error": "\(error)"]) }
                await self?.sweepGooglePlay()
            }
        }
        sweeper.withLock { $0 = task }
    }

    /// The Google Play store's share of the housekeeping: acknowledgements to retry, voided
    /// purchases to read, and the count `/metrics` shows. Tests call it rather than wait.
    public func sweepGooglePlay() async {
        do {
            _ = try await commerce.sweepGooglePlay()
            let counted = try await commerce.unacknowledgedGooglePurchases()
            googlePlayUnacknowledged.withLock { $0 = counted }
        } catch {
            environment.logger.warning("google play sweep failed", ["error": "\(error)"])
        }
    }

    static func serverConfiguration(_ settings: Settings) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = settings.host
        configuration.port = settings.port
        configuration.threads = settings.threads
        configuration.maxBodySize = settings.maxBodyBytes
        configuration.maxHeaderSize = settings.maxHeaderBytes
        configuration.maxConnections = settings.maxConnections
        configuration.connectionTimeout = settings.connectionTimeout
        configuration.trustedProxies = settings.trustedProxies
        configuration.shutdownGrace = settings.shutdownGrace
        return configuration
    }
}
