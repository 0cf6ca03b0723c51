import GatehouseHTTP
import GatehouseWire

/// Registers the admin API's routes from their declarations (`AdminWire.Endpoints`), each
/// behind the admin token: `admin.on(AdminWire.Endpoints.createTenant, .async { request, context in … })`.
struct AdminRegistrar: Sendable {
    let router: Router
    let authentication: AdminAuthentication

    func on(_ endpoint: Endpoint<RawBytes, RawBytes>, maxBodySize: Int? = nil, _ handler: Handler) {
        let run: @Sendable (Request, RequestContext) async throws -> Response
        switch handler {
        case .async(let body): run = body
        case .inline(let body): run = { request, context in try body(request, context) }
        }
        router.on(endpoint, authentication, maxBodySize: maxBodySize) { request, context, _ in try await run(request, context) }
    }
}
