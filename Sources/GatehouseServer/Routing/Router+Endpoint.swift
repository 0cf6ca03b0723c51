import GatehouseHTTP
import GatehouseWire

extension Router {
    /// Registers `endpoint` from its declaration, behind `authenticator`, which must check the
    /// credential the endpoint declares: a route and its contract cannot drift apart.
    func on<Body, Reply, A: Authenticator>(
        _ endpoint: Endpoint<Body, Reply>, _ authenticator: A, maxBodySize: Int? = nil, uploads: UploadPolicy? = nil, body: RequestBodyKind? = nil,
        _ handler: @escaping AuthenticatedHandler<A.Principal>
    ) {
        precondition(
            endpoint.credential.rawValue == authenticator.credential,
            "\(endpoint.id) takes the \(endpoint.credential) credential, not \(authenticator.credential)")
        on(HTTPMethod(endpoint.method), endpoint.template, authenticatedBy: authenticator, maxBodySize: maxBodySize, uploads: uploads, body: body, handler)
    }
}

extension Router {
    /// Registers an inline `handler` for `endpoint` behind an authenticator that never waits
    /// (`Anyone` for an endpoint without a credential): it answers on the server thread.
    func on<Body, Reply, A: InlineAuthenticator>(
        _ endpoint: Endpoint<Body, Reply>, inline authenticator: A, _ handler: @escaping @Sendable (Request, RequestContext, A.Principal) throws -> Response
    ) {
        precondition(
            endpoint.credential.rawValue == authenticator.credential,
            "\(endpoint.id) takes the \(endpoint.credential) credential, not \(authenticator.credential)")
        on(HTTPMethod(endpoint.method), endpoint.template, inlineAuthenticatedBy: authenticator, handler)
    }
}

extension HTTPMethod {
    /// The transport's method for the contract's.
    init(_ method: RequestMethod) { self.init(rawValue: method.rawValue) }
}
