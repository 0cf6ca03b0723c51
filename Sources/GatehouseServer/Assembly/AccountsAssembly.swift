import GatehouseAccountsEngine
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire
import GatehouseWiring

/// The accounts engine: sign-in codes are the verification engine's
/// (`VerificationEngine+OneTimeCodes`), sessions rotate per the settings.
struct AccountsAssembly {
    let engine: AccountsEngine

    init(_ node: NodeParts, codes: VerificationEngine) {
        engine = AccountsEngine(
            environment: node.environment, codes: codes, sessions: SessionService(environment: node.environment, settings: node.settings.sessions))
    }

    func register(admin: AdminRegistrar) {
        admin.on(AdminWire.Endpoints.rotateTokenKey) { [engine] _, context in
            try await engine.sessions.rotateSigningKey(tenantID: context.parameter("tenantId"))
            return NoBody()
        }
    }
}
