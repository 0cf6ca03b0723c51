/// Routes that share a path prefix and middleware. Groups nest.
public final class RouteGroup: RouteRegistering, Sendable {
    private let router: Router
    private let prefix: String
    private let middleware: [any Middleware]

    init(router: Router, prefix: String, middleware: [any Middleware]) {
        self.router = router
        self.prefix = prefix
        self.middleware = middleware
    }

    public func register(_ method: HTTPMethod, _ path: String, maxBodySize: Int?, uploads: UploadPolicy?, _ handler: Handler) {
        let template = Router.normalize(prefix + "/" + path)
        if case .inline = handler {
            precondition(!middleware.contains(where: \.waits), "\(template): a middleware that waits needs async handlers")
        }
        router.add(Route(
            method: method, template: template, handler: handler, middleware: middleware, maxBodySize: maxBodySize, body: router.bodyKind,
            uploads: uploads))
    }

    /// A nested group: its middleware runs after this group's.
    @discardableResult
    public func group(_ prefix: String, middleware: [any Middleware] = [], _ build: (RouteGroup) -> Void = { _ in }) -> RouteGroup {
        let group = RouteGroup(
            router: router, prefix: Router.normalize(self.prefix + "/" + prefix), middleware: self.middleware + middleware)
        build(group)
        return group
    }
}

/// Shared verbs of `Router` and `RouteGroup`.
public protocol RouteRegistering {
    func register(_ method: HTTPMethod, _ path: String, maxBodySize: Int?, uploads: UploadPolicy?, _ handler: Handler)
}

extension RouteRegistering {
    public func register(_ method: HTTPMethod, _ path: String, maxBodySize: Int?, _ handler: Handler) {
        register(method, path, maxBodySize: maxBodySize, uploads: nil, handler)
    }
    /// A POST that takes JSON, or multipart with files streamed to disk under `uploads`.
    public func post(_ path: String, uploads: UploadPolicy, _ handler: Handler) {
        register(.POST, path, maxBodySize: nil, uploads: uploads, handler)
    }
    public func get(_ path: String, _ handler: Handler) { register(.GET, path, maxBodySize: nil, handler) }
    public func post(_ path: String, maxBodySize: Int? = nil, _ handler: Handler) {
        register(.POST, path, maxBodySize: maxBodySize, handler)
    }
    public func put(_ path: String, _ handler: Handler) { register(.PUT, path, maxBodySize: nil, handler) }
    public func patch(_ path: String, _ handler: Handler) { register(.PATCH, path, maxBodySize: nil, handler) }
    public func delete(_ path: String, _ handler: Handler) { register(.DELETE, path, maxBodySize: nil, handler) }
}
