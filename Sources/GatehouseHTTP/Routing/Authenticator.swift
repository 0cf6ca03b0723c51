/// Checks one kind of credential and says who the caller is, as a type of its own: a route
/// registered with an authenticator gets its principal as a typed argument, so a handler that
/// needs a session cannot be registered without the session's check in front of it.
///
/// ```swift
/// struct Sessions: Authenticator {
///     let credential = "session"
///     func authenticate(_ request: Request, context: RequestContext) async throws -> SessionPrincipal { … }
/// }
/// router.on(.GET, "/me", authenticatedBy: Sessions()) { request, context, who in … }
/// ```
public protocol Authenticator<Principal>: Sendable {
    associatedtype Principal: Sendable
    /// The contract's name of the credential checked (`session`, `admin`, …), compared with
    /// what an endpoint declares when it is registered.
    var credential: String { get }
    /// The caller, or a throw (the dialect renders it: 401, 403).
    func authenticate(_ request: Request, context: RequestContext) async throws -> Principal
}

/// A route's handler that runs after its authenticator, with the principal it produced.
public typealias AuthenticatedHandler<Principal> = @Sendable (Request, RequestContext, Principal) async throws -> Response

extension Router {
    /// Registers `handler` behind `authenticator`: the caller is checked first, then the
    /// handler runs with who it is.
    public func on<A: Authenticator>(
        _ method: HTTPMethod, _ path: String, authenticatedBy authenticator: A, maxBodySize: Int? = nil, uploads: UploadPolicy? = nil,
        body: RequestBodyKind? = nil, _ handler: @escaping AuthenticatedHandler<A.Principal>
    ) {
        on(method, path, maxBodySize: maxBodySize, uploads: uploads, body: body, .async { request, context in
            let principal = try await authenticator.authenticate(request, context: context)
            return try await handler(request, context, principal)
        })
    }
}

/// An authenticator that never waits (a token compared with one in memory): its routes keep
/// the inline fast path, answered on the server thread.
public protocol InlineAuthenticator<Principal>: Authenticator {
    func authenticateInline(_ request: Request, context: RequestContext) throws -> Principal
}

extension InlineAuthenticator {
    public func authenticate(_ request: Request, context: RequestContext) async throws -> Principal {
        try authenticateInline(request, context: context)
    }
}

extension Router {
    /// Registers an inline `handler` behind an authenticator that never waits.
    public func on<A: InlineAuthenticator>(
        _ method: HTTPMethod, _ path: String, inlineAuthenticatedBy authenticator: A,
        _ handler: @escaping @Sendable (Request, RequestContext, A.Principal) throws -> Response
    ) {
        on(method, path, .inline { request, context in try handler(request, context, try authenticator.authenticateInline(request, context: context)) })
    }
}
