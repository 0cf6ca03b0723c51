// Safe: `routes`, `renderers` and the trie's contents change only while routes are registered, which every caller in
// Sources does before `Server.start()` spawns the MHD threads that read them; after that they are only read. Nothing
// enforces the order: registering a route on a running server would race.
/// Maps method and path to a handler.
///
/// ```swift
/// let router = Router()
/// router.get("/healthz", .inline { _, _ in .text("ok") })
/// router.group("/admin/v1", middleware: [AdminAuth(token)]) { admin in
///     admin.post("/tenants", .async { request, context in try await createTenant(request) })
/// }
/// ```
public final class Router: @unchecked Sendable {
    /// Renders every error under a dialect's prefix in its own envelope: what handlers and
    /// middleware throw, and what the router and transport raise (404, 405, 413, … as
    /// `HTTPError`). Given the error, the raw path and the context; it logs what it does not know.
    public typealias ErrorRenderer = @Sendable (any Error, String, RequestContext) -> Response

    private let trie = RouteTrie()
    public private(set) var routes: [Route] = []
    private var renderers: [(prefix: String, render: ErrorRenderer)] = []

    /// Errors for paths under `prefix` (a path segment boundary; `/` for every path) use
    /// `renderer`; register one per dialect.
    public func renderErrors(under prefix: String, _ renderer: @escaping ErrorRenderer) {
        renderers.append((Self.normalize(prefix), renderer))
        renderers.sort { $0.prefix.count > $1.prefix.count }
    }

    /// The renderer of the longest registered prefix of `path`.
    /// The path is read the way routes are matched, empty segments ignored: `//api/x` is
    /// routed as `/api/x`, so its errors must be rendered by the same dialect.
    func errorRenderer(for path: String) -> ErrorRenderer? {
        let normalized = path.contains("//") ? Self.normalize(path) : path
        return renderers.first { $0.prefix == "/" || normalized == $0.prefix || normalized.hasPrefix($0.prefix + "/") }?.render
    }

    /// The body every route of this router reads; `.json` for an API server.
    public let bodyKind: RequestBodyKind

    public init(bodyKind: RequestBodyKind = .any) {
        self.bodyKind = bodyKind
    }

    /// Registers a handler; registration happens before the server starts.
    /// `body` overrides the router's body kind for this route (a proxy takes any bytes).
    public func on(
        _ method: HTTPMethod, _ path: String, maxBodySize: Int? = nil, uploads: UploadPolicy? = nil, body: RequestBodyKind? = nil, _ handler: Handler
    ) {
        add(Route(
            method: method, template: Self.normalize(path), handler: handler, middleware: [], maxBodySize: maxBodySize, body: body ?? bodyKind,
            uploads: uploads))
    }

    func add(_ route: Route) {
        trie.insert(route)
        routes.append(route)
    }

    func match(method: HTTPMethod, path: String) -> RouteMatch {
        trie.match(method: method, path: path)
    }

    /// A group of routes under a common prefix and middleware.
    @discardableResult
    public func group(_ prefix: String, middleware: [any Middleware] = [], _ build: (RouteGroup) -> Void = { _ in }) -> RouteGroup {
        let group = RouteGroup(router: self, prefix: Self.normalize(prefix), middleware: middleware)
        build(group)
        return group
    }

    static func normalize(_ path: String) -> String {
        "/" + RouteTrie.segments(path).joined(separator: "/")
    }
}

extension Router: RouteRegistering {
    public func register(_ method: HTTPMethod, _ path: String, maxBodySize: Int?, uploads: UploadPolicy?, _ handler: Handler) {
        on(method, path, maxBodySize: maxBodySize, uploads: uploads, handler)
    }
}
