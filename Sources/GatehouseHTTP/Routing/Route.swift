/// A registered route: its template, handler and the middleware of its groups.
public struct Route: Sendable {
    public let method: HTTPMethod
    public let template: String
    let handler: Handler
    let middleware: [any Middleware]
    /// Overrides the server's body limit for this route (uploads), in bytes.
    let maxBodySize: Int?
}

/// The outcome of looking a request up in the router.
enum RouteMatch {
    case found(Route, parameters: [String: String])
    /// The path exists but not for this method.
    case methodNotAllowed(allowed: [HTTPMethod])
    case notFound
}
