import GatehouseCore
import GatehouseHTTP
import GatehousePossessionEngine
import GatehouseVerificationEngine
import GatehouseWiring

/// The possession engine (Prove dialect and the device API): its OTP fallback sends the
/// verification engine's codes, and operators' carrier addresses are vetted like managed APIs'.
struct PossessionAssembly {
    let engine: PossessionEngine

    init(_ node: NodeParts, codes: VerificationEngine) throws {
        let development = node.isDevelopment
        engine = PossessionEngine(
            environment: node.environment, codes: codes,
            carriers: [
                CamaraNumberVerification(http: node.tenantHTTP, allowsPrivateAddresses: development, vet: { url, allowPrivate in
                    try await ResolvingDestinationGuard().vet(url, allowPrivate: allowPrivate && development)
                })
            ],
            keys: try GatehouseApp.possessionKeys(node.settings, logger: node.logger), allowsDevelopmentCarriers: development)
    }

    func register(on router: Router, admin: AdminRegistrar, directory: TenantDirectory, node: NodeParts) {
        AdminPossessionRoutes.register(on: admin, engine: engine, directory: directory)
        ProveRoutes.register(on: router, engine: engine, options: .init(issuer: node.publicBase), logger: node.logger)
        PossessionDeviceRoutes.register(on: router, engine: engine, perMinute: node.settings.possessionRatePerMinute, logger: node.logger)
    }
}
