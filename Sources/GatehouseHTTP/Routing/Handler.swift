/// How a route answers. `inline` handlers run on the server thread that read the request,
/// so they must never wait on the network; `async` handlers suspend the connection and
/// hold no server thread while they wait.
public enum Handler: Sendable {
    case inline(@Sendable (Request, RequestContext) throws -> Response)
    case async(@Sendable (Request, RequestContext) async throws -> Response)
}
