import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseDelivery
import GatehouseWire
import GatehouseWiring
import GatehouseExecutors
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
public final class GatehouseApp: @unchecked Sendable {
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
    public let router = Router(bodyKind: .json)
    /// Every call this node makes to another service (libcurl, one thread and connection cache).
    public let outbound: CurlHTTPClient
    private let sweeper = LockedValue<Task<Void, Never>?>(nil)
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
        let database = try injected?.database ?? Self.openDatabase(settings)
        let outbound = CurlHTTPClient()
        self.outbound = outbound
        let environment = injected ?? .live(database: database, logger: logger, http: outbound)
        self.environment = environment
        _ = try DatabaseMigrator(migrations: Self.migrations, now: { environment.clock.now }).migrate(database)
        directory = TenantDirectory(environment: environment)
        verification = VerificationEngine(
            environment: environment, delivery: try Self.delivery(settings, environment: environment, sink: logSink),
            settings: settings.verification)
        deliveries = DeliveryDispatcher(engine: verification)
        // Sign-in codes are the verification engine's (VerificationEngine+OneTimeCodes).
        accounts = AccountsEngine(
            environment: environment, codes: verification,
            sessions: SessionService(environment: environment, settings: settings.sessions))
        commerce = CommerceEngine(environment: environment, accounts: accounts)
        let workflowSettings = settings.workflows
        try FileManager.default.createDirectory(at: workflowSettings.uploadsDirectory, withIntermediateDirectories: true)
        let ownURL = self.ownURL
        let publicURL = settings.publicURL.flatMap(URL.init(string:))
        // Executors call addresses a tenant chose: no call follows a redirect unless it asks.
        // Tests that inject an environment inject its outbound HTTP too.
        let executorHTTP: any OutboundHTTP = environment.http
        workflows = WorkflowsEngine(
            environment: environment, settings: workflowSettings, billing: commerce,
            events: RunEventHub(channel: environment.invalidations.channel),
            executors: [
                DocumentDigestExecutor(),
                URLCheckExecutor(http: executorHTTP, allowPrivateTargets: settings.mode == .development),
                WebhookWorkflowExecutor(
                    http: executorHTTP, clock: environment.clock,
                    publicURL: { publicURL ?? ownURL.withLock { $0 } ?? URL(string: "http://127.0.0.1")! }),
                OpenAIWorkflowExecutor(http: executorHTTP),
            ])
        runs = WorkflowRunner(engine: workflows)
        // Token endpoints are addresses a tenant chose, like executors' targets: no redirects.
        var managedEnvironment = environment
        managedEnvironment.http = executorHTTP
        managedAPIs = ManagedAPIsEngine(
            environment: managedEnvironment, secrets: try Self.managedAPISecrets(settings, logger: logger), destinations: ResolvingDestinationGuard())
        // Possession codes are the verification engine's too; operators' addresses are vetted like managed APIs'.
        possession = PossessionEngine(
            environment: environment, codes: verification,
            carriers: [CamaraNumberVerification(http: executorHTTP, allowsPrivateAddresses: settings.mode == .development, vet: { [development = settings.mode == .development] url, allowPrivate in
                try await ResolvingDestinationGuard().vet(url, allowPrivate: allowPrivate && development)
            })],
            keys: try Self.possessionKeys(settings, logger: logger), allowsDevelopmentCarriers: settings.mode == .development)
        settlement = settings.rateLimitSharing == .cluster
            ? RateLimitSettlement(limiter: environment.rateLimiter, database: database) : nil
        listener = settings.isPostgres ? Self.notificationListener(settings, environment: environment, hub: workflows.events) : nil
        if settings.isPostgres, settings.rateLimitSharing == .node {
            // One PostgreSQL usually means several nodes, each of which would allow the full limit.
            logger.warning("request rate limits are counted per node; set rate-limit-sharing cluster when several nodes share this database")
        }

        let metrics = HTTPMetrics()
        let proxyMetrics = HTTPMetrics(
            family: "gatehouse_managed_api_request", routeLabel: "api",
            help: ("Proxied managed API calls, by tenant/name and the status passed back.", "Time until the upstream's answer began."))
        SystemRoutes.register(on: router, database: database)
        let admin = AdminRoutes.register(on: router, directory: directory, configuredToken: settings.adminToken, logger: logger)
        AdminVerificationRoutes.register(on: admin, engine: verification, database: database, directory: directory)
        admin.on(AdminWire.Endpoints.rotateTokenKey, .async { [accounts] _, context in
            try await accounts.sessions.rotateSigningKey(tenantID: context.parameter("tenantId"))
            return .empty()
        })
        VerificationRoutes.register(on: router, engine: verification, logger: logger)
        if settings.mode == .development { DevelopmentCallbackRoutes.register(on: router, engine: verification) }
        let providersOn = settings.deliveryProviders != nil
        DeliveryReceiptRoutes.register(
            on: router, engine: verification, twilioAuthToken: providersOn ? settings.twilioAuthToken : nil,
            vonage: providersOn ? settings.vonageSignatureSecret.map {
                .init(secret: $0, method: settings.vonageSignatureMethod, applicationId: settings.vonageApplicationId)
            } : nil,
            clock: environment.clock
        ) {
            let base = publicURL?.absoluteString ?? ownURL.withLock { $0?.absoluteString } ?? "http://127.0.0.1"
            return base.hasSuffix("/") ? String(base.dropLast()) : base
        }
        DatacoveRoutes.register(
            on: router, accounts: accounts, commerce: commerce, directory: directory,
            appStoreAPI: settings.appstoreApiURL,
            logger: logger)
        TenantStoreRoutes.register(on: router, commerce: commerce, directory: directory, adminToken: settings.adminToken, logger: logger)
        AppleWebhookRoutes.register(on: router, commerce: commerce, logger: logger)
        AdminWorkflowRoutes.register(on: admin, engine: workflows, commerce: commerce)
        AdminManagedAPIRoutes.register(on: admin, engine: managedAPIs)
        AdminPossessionRoutes.register(on: admin, engine: possession, directory: directory)
        ProveRoutes.register(
            on: router, engine: possession,
            options: .init(issuer: {
                let base = publicURL?.absoluteString ?? ownURL.withLock { $0?.absoluteString } ?? "http://127.0.0.1"
                return base.hasSuffix("/") ? String(base.dropLast()) : base
            }), logger: logger)
        PossessionDeviceRoutes.register(on: router, engine: possession, perMinute: settings.possessionRatePerMinute, logger: logger)
        ManagedAPIRoutes.register(
            on: router, engine: managedAPIs, accounts: accounts,
            proxy: ManagedAPIProxy(
                engine: managedAPIs, session: UpstreamSession(http: outbound),
                limits: .init(maxResponseBytes: settings.managedApiMaxResponseMb << 20, timeout: settings.managedApiTimeout), metrics: proxyMetrics,
                clock: { [clock = environment.clock] in clock.now }),
            options: .init(maxRequestBytes: settings.managedApiMaxRequestBytes, perMinute: settings.managedApiRatePerMinute), logger: logger)
        WorkflowRoutes.register(
            on: router, engine: workflows, accounts: accounts,
            options: .init(
                uploads: UploadPolicy(
                    directory: workflowSettings.uploadsDirectory, maxBytes: Int(workflowSettings.maxUploadBytes) + (1 << 20),
                    admits: WorkflowRoutes.admitsUpload(accounts: accounts)),
                heartbeat: settings.workflowStreamHeartbeat),
            logger: logger)
        SubscriptionFlowRoutes.register(
            on: router, commerce: commerce, directory: directory, clientPerMinute: settings.storeClientRequestsPerMinute, logger: logger)
        OpenAPIRoutes.register(on: router)

        let accessLog: AccessLog?
        switch settings.accessLog {
        case .off: accessLog = nil
        case .standardOutput: accessLog = AccessLog(sink: logSink)
        case .file(let path):
            guard let writer = LineWriter(path: path) else { throw SettingsError("cannot open access log \(path)") }
            accessLog = AccessLog(sink: writer)
        }
        // The transport's message may quote anything; the request id is the server's own.
        let transportLog: @Sendable (TransportLogEntry) -> Void = { entry in
            logger.error(LogValue(entry.message), entry.requestID.map { ["requestId": LogValue.plain($0)] } ?? [:])
        }
        server = Server(
            configuration: Self.serverConfiguration(settings),
            responder: Responder(router: router, errorLog: transportLog),
            metrics: metrics, accessLog: accessLog, errorLog: transportLog)
        metricsServer = Self.metricsServer(
            settings, metrics: [metrics, proxyMetrics],
            counters: [verification.testNumberUses, verification.deliveryReceipts, verification.prefixBlocksImposed],
            outbound: outbound.metrics, publicRouter: router, errorLog: transportLog, logger: logger)
    }

    /// Every migration this binary knows, in order: core first, then each engine's.
    public static let migrations: [Migration] = EngineMigrations.all

    /// The development outbox unless a provider bridge is configured. In development the
    /// outbox also prints each message, unredacted, so a developer can read the code.
    static func delivery(_ settings: Settings, environment: Environment, sink: any LogSink) throws -> any MessageDelivery {
        let phone = try phoneDelivery(settings, environment: environment, sink: sink)
        guard let host = settings.smtpHost else {
            // SMS providers send no email: without an SMTP server, email stays in the outbox.
            return settings.deliveryProviders == nil ? phone : ChannelDelivery(phone: phone, email: outbox(settings, environment: environment, sink: sink))
        }
        let email = SMTPDelivery(
            host: host, port: settings.smtpPort, from: settings.smtpFrom, username: settings.smtpUsername, password: settings.smtpPassword,
            security: settings.smtpSecurity, timeout: 15, totalTimeout: settings.verification.deliveryDeadline, clock: environment.clock,
            subject: settings.smtpSubject)
        return ChannelDelivery(phone: phone, email: email)
    }

    /// SMS and voice: the providers `delivery-providers` names, else the provider bridge if
    /// configured, else the outbox (which also takes
    /// email while no SMTP server is configured).
    static func phoneDelivery(_ settings: Settings, environment: Environment, sink: any LogSink) throws -> any MessageDelivery {
        if let providers = try providerDelivery(settings, environment: environment) { return providers }
        if let url = settings.deliveryWebhookURL {
            guard let target = URL(string: url), let secret = settings.deliveryWebhookSecret else {
                throw SettingsError("delivery-webhook-url needs a valid URL and delivery-webhook-secret")
            }
            return WebhookDelivery(url: target, secret: secret, http: environment.http, clock: environment.clock)
        }
        return outbox(settings, environment: environment, sink: sink)
    }

    /// The development outbox; in development it also prints each message, unredacted.
    static func outbox(_ settings: Settings, environment: Environment, sink: any LogSink) -> any MessageDelivery {
        guard settings.mode == .development else { return DevelopmentOutbox(database: environment.database) }
        return DevelopmentOutbox(database: environment.database) { message in
            sink.write("outbox: \(message.channel.rawValue) to \(message.to): \(message.body)")
        }
    }

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

    public func start() throws {
        try server.start()
        // The address is the server's own, no secret: its port must survive the digit masking.
        environment.logger.info("listening", ["address": .plain("http://\(settings.host):\(server.port)")])
        ownURL.withLock { $0 = URL(string: "http://\(settings.host == "0.0.0.0" || settings.host == "::" ? "127.0.0.1" : settings.host):\(server.port)") }
        if let metricsServer {
            try metricsServer.start()
            environment.logger.info("metrics listening", ["address": .plain("http://\(settings.metricsHost):\(metricsServer.port)/metrics")])
        }
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

    /// Stops accepting, lets in-flight requests finish, closes the database.
    /// The grace is one deadline for all of it: the requests in flight, then the deliveries
    /// in hand; a delivery cut off by it is claimed again after its lease.
    public func shutdown() {
        let deadline = DispatchTime.now() + settings.shutdownGrace
        let sweeping = sweeper.withLock { $0 }
        sweeping?.cancel()
        server.shutdown(grace: settings.shutdownGrace)
        metricsServer?.shutdown(grace: 1)
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

    /// Housekeeping every 30 s: stale dispatches, lapsed and overdue runs, retention, old counters, ended possession flows.
    private func startSweeper() {
        let (engine, workflows, possession) = (verification, self.workflows, self.possession)
        let logger = environment.logger
        let task = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 30_000_000_000)
                if Task.isCancelled { return }
                do { try await engine.sweep() } catch { logger.warning("sweep failed", ["error": "\(error)"]) }
                do { try await workflows.sweep() } catch { logger.warning("workflow sweep failed", ["error": "\(error)"]) }
                do { try await possession.sweep() } catch { logger.warning("possession sweep failed", ["error": "\(error)"]) }
            }
        }
        sweeper.withLock { $0 = task }
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
