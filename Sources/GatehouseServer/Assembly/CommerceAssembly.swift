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
        let passkeyOptions = PerMinuteLimit(name: "passkey-sign-in-options", perMinute: 60, environment: node.environment) { retryAfter in
            DatacoveError(status: 429, code: "RATE_LIMITED", message: "Too many passkey sign-ins from here. Try again later.", retryAfter: retryAfter)
        }
        PasskeyRoutes.register(
            on: router, accounts: accounts, directory: directory, adminToken: settings.adminToken, signInOptions: passkeyOptions,
            device: { DatacoveRoutes.device($0, platform: $1) })
        AppleWebhookRoutes.register(on: router, commerce: engine, logger: logger)
        GooglePlayWebhookRoutes.register(on: router, commerce: engine, logger: logger)
        SubscriptionFlowRoutes.register(
            on: router, commerce: engine, directory: directory, clientPerMinute: settings.storeClientRequestsPerMinute, logger: logger)
    }
}
