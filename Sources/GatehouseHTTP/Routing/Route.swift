/// A registered route: its template, handler and the middleware of its groups.
/// A class, so that passing a matched route along costs one retain.
public final class Route: Sendable {
    public let method: HTTPMethod
    public let template: String
    let handler: Handler
    let middleware: [any Middleware]
    /// Overrides the server's body limit for this route (uploads), in bytes.
    let maxBodySize: Int?
    /// What the body must be; the transport refuses anything else.
    let body: RequestBodyKind
    /// Whether a multipart body with files is also taken, and where the files go.
    let uploads: UploadPolicy?

    init(
        method: HTTPMethod, template: String, handler: Handler, middleware: [any Middleware], maxBodySize: Int?, body: RequestBodyKind,
        uploads: UploadPolicy? = nil
    ) {
        self.uploads = uploads
        self.method = method
        self.template = template
        self.handler = handler
        self.middleware = middleware
        self.maxBodySize = maxBodySize
        self.body = body
    }
}

/// The outcome of looking a request up in the router.
enum RouteMatch {
    case found(Route, parameters: [String: String])
    /// The path exists but not for this method.
    case methodNotAllowed(allowed: [HTTPMethod])
    case notFound
}
