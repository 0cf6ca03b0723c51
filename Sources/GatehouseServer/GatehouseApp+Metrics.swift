import GatehouseCommerceEngine
import GatehouseCore
import GatehouseDatabase
import GatehouseHTTP
import GatehousePostgres

extension GatehouseApp {
    /// Decides where `/metrics` is served, since it lists tenant ids and API names: with
    /// `metrics-port`, on a listener of its own (`metrics-host`, loopback unless told) and
    /// nowhere else; without it, on the public listener behind `metrics-token`, or open in
    /// development only. Production with neither serves it nowhere (404 in the admin envelope).
    /// Returns the listener of its own, if any.
    static func metricsServer(
        _ settings: Settings, metrics: [HTTPMetrics], counters: [Counters], outbound: OutboundMetrics, families: [@Sendable () -> String],
        publicRouter: Router,
        errorLog: @escaping @Sendable (TransportLogEntry) -> Void, logger: Logger
    ) -> Server? {
        guard let port = settings.metricsPort else {
            if settings.metricsToken != nil || settings.mode == .development {
                SystemRoutes.registerMetrics(on: publicRouter, metrics: metrics, counters: counters, outbound: outbound, families: families, token: settings.metricsToken)
            } else {
                logger.info("/metrics is not served: set metrics-port for a listener of its own, or metrics-token")
            }
            return nil
        }
        let router = Router(bodyKind: .json)
        SystemRoutes.registerMetrics(on: router, metrics: metrics, counters: counters, outbound: outbound, families: families, token: settings.metricsToken)
        var configuration = ServerConfiguration()
        configuration.host = settings.metricsHost
        configuration.port = port
        // A scraper or two: one thread, few connections, no large requests.
        configuration.threads = 1
        configuration.maxConnections = 64
        configuration.maxBodySize = 4096
        configuration.connectionTimeout = settings.connectionTimeout
        return Server(configuration: configuration, responder: Responder(router: router, errorLog: errorLog), errorLog: errorLog)
    }

    /// The database's own families: PostgreSQL's round trips, which say what a request costs
    /// it beside the statements it runs.
    static func databaseFamilies(_ database: any Database) -> [@Sendable () -> String] {
        guard let postgres = database as? PostgresDatabase else { return [] }
        return [{
            "# HELP gatehouse_database_round_trips_total Round trips to PostgreSQL (a pipeline's sync point, or a command).\n"
                + "# TYPE gatehouse_database_round_trips_total counter\ngatehouse_database_round_trips_total \(postgres.roundTrips)\n"
        }]
    }

    /// Google Play grants Google has not heard of a day after they were made, by tenant (as
    /// the last sweep counted them): Google refunds and revokes them at three days.
    static func googlePlayFamily(_ unacknowledged: LockedValue<[String: Int]>) -> @Sendable () -> String {
        {
            var text = "# HELP gatehouse_google_play_unacknowledged Google Play grants still unacknowledged (or unconsumed) 24 hours after they were made.\n"
                + "# TYPE gatehouse_google_play_unacknowledged gauge\n"
            for (tenant, count) in unacknowledged.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
                text += "gatehouse_google_play_unacknowledged{tenant=\"\(tenant)\"} \(count)\n"
            }
            return text
        }
    }
}
