import GatehouseAccountsEngine
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseWiring

/// The managed APIs engine (definitions, connections, tokens) and its proxy, which calls
/// upstreams on the node's libcurl client and counts its calls in metrics of their own.
struct ManagedAPIsAssembly {
    let engine: ManagedAPIsEngine
    let proxyMetrics = HTTPMetrics(
        family: "gatehouse_managed_api_request", routeLabel: "api",
        help: ("Proxied managed API calls, by tenant/name and the status passed back.", "Time until the upstream's answer began."))

    init(_ node: NodeParts) throws {
        // Token endpoints are addresses a tenant chose, like executors' targets: no redirects.
        var environment = node.environment
        environment.http = node.tenantHTTP
        engine = ManagedAPIsEngine(
            environment: environment, secrets: try GatehouseApp.managedAPISecrets(node.settings, logger: node.logger),
            destinations: ResolvingDestinationGuard())
    }

    func register(on router: Router, admin: AdminRegistrar, accounts: AccountsEngine, node: NodeParts) {
        let settings = node.settings
        AdminManagedAPIRoutes.register(on: admin, engine: engine)
        ManagedAPIRoutes.register(
            on: router, engine: engine, accounts: accounts,
            proxy: ManagedAPIProxy(
                engine: engine, session: UpstreamSession(http: node.outbound),
                limits: .init(maxResponseBytes: settings.managedApiMaxResponseMb << 20, timeout: settings.managedApiTimeout), metrics: proxyMetrics,
                clock: { [clock = node.environment.clock] in clock.now }),
            options: .init(maxRequestBytes: settings.managedApiMaxRequestBytes, perMinute: settings.managedApiRatePerMinute), logger: node.logger)
    }
}
