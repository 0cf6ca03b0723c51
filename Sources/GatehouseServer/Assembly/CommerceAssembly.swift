import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWiring

/// The commerce engine (App Store purchases, credits, plans) and the routes of the two
/// dialects that sell: Datacove's (with its sign-in and profile) and SubscriptionFlow's.
struct CommerceAssembly {
    let engine: CommerceEngine

    init(_ node: NodeParts, accounts: AccountsEngine) throws {
        engine = CommerceEngine(
            environment: node.environment, accounts: accounts, secrets: try GatehouseApp.storeSecrets(node.settings, logger: node.logger),
            google: GoogleEndpoints(
                playAPI: node.settings.googlePlayApiURL, token: node.settings.googleTokenURL, certificates: node.settings.googleCertsURL))
    }

    func register(on router: Router, accounts: AccountsEngine, directory: TenantDirectory, node: NodeParts) {
        let (settings, logger) = (node.settings, node.logger)
        DatacoveRoutes.register(
            on: router, accounts: accounts, commerce: engine, directory: directory, appStoreAPI: settings.appstoreApiURL, logger: logger)
        TenantStoreRoutes.register(on: router, commerce: engine, directory: directory, adminToken: settings.adminToken, logger: logger)
        AppleWebhookRoutes.register(on: router, commerce: engine, logger: logger)
        GooglePlayWebhookRoutes.register(on: router, commerce: engine, logger: logger)
        SubscriptionFlowRoutes.register(
            on: router, commerce: engine, directory: directory, clientPerMinute: settings.storeClientRequestsPerMinute, logger: logger)
    }
}
