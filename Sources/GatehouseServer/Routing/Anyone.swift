import GatehouseHTTP
import GatehouseWire

/// The authenticator of endpoints that take no credential: everyone passes.
struct Anyone: Authenticator {
    struct Caller: Sendable {}
    let credential = Credential.none.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> Caller { Caller() }
}
