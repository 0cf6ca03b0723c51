import GatehouseCore
import GatehouseHTTP

extension GatehouseApp {
    /// Decides where `/metrics` is served, since it lists tenant ids and API names: with
    /// `metrics-port`, on a listener of its own (`metrics-host`, loopback unless told) and
    /// nowhere else; without it, on the public listener behind `metrics-token`, or open in
    /// development only. Production with neither serves it nowhere (404 in the admin envelope).
    /// Returns the listener of its own, if any.
    static func metricsServer(
        _ settings: Settings, metrics: [HTTPMetrics], counters: [Counters], outbound: OutboundMetrics, publicRouter: Router,
        errorLog: @escaping @Sendable (TransportLogEntry) -> Void, logger: Logger
    ) -> Server? {
        guard let port = settings.metricsPort else {
            if settings.metricsToken != nil || settings.mode == .development {
                SystemRoutes.registerMetrics(on: publicRouter, metrics: metrics, counters: counters, outbound: outbound, token: settings.metricsToken)
            } else {
                logger.info("/metrics is not served: set metrics-port for a listener of its own, or metrics-token")
            }
            return nil
        }
        let router = Router(bodyKind: .json)
        SystemRoutes.registerMetrics(on: router, metrics: metrics, counters: counters, outbound: outbound, token: settings.metricsToken)
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
}
