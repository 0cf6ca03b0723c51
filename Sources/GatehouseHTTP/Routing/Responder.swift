import Foundation
import GatehouseFormats

/// Turns a routed request into a response: middleware, handler, error rendering.
/// It knows nothing of sockets, so tests can drive it in process.
public final class Responder: Sendable {
    /// A request whose route is known, before its body has arrived.
    /// A class: the transport keeps it for the whole exchange and hands it around, and a
    /// reference costs one retain where the struct's fields cost several.
    public final class Routed: Sendable {
        public let route: Route?
        public let context: RequestContext
        /// Set when the router answers by itself (404, 405, OPTIONS).
        public let immediate: Response?

        init(route: Route?, context: RequestContext, immediate: Response?) {
            self.route = route
            self.context = context
            self.immediate = immediate
        }

        /// True when the handler is inline and can answer on the server thread.
        public var isInline: Bool {
            if let route, case .inline = route.handler { return true }
            return immediate != nil
        }
        public var maxBodySize: Int? { route?.maxBodySize }
        /// Where a multipart body's files go, for a route that takes them.
        public var uploads: UploadPolicy? { route?.uploads }
        /// What the body must be; nothing is read for an answer the router gave itself.
        public var bodyKind: RequestBodyKind { route?.body ?? .any }
    }

    public let router: Router
    private let errorLog: @Sendable (TransportLogEntry) -> Void

    public init(router: Router, errorLog: @escaping @Sendable (TransportLogEntry) -> Void) {
        self.router = router
        self.errorLog = errorLog
    }

    /// Finds the route for a request head. `path` is the raw path: segments split on `/`
    /// before percent-decoding, so an encoded `%2F` stays inside its parameter.
    public func route(method: HTTPMethod, path: String, requestID: String, clientAddress: String) -> Routed {
        var context = RequestContext(requestID: requestID, clientAddress: clientAddress)
        switch router.match(method: method, path: path) {
        case .found(let route, let parameters):
            context.route = route.template
            context.parameters = parameters
            return Routed(route: route, context: context, immediate: nil)
        case .methodNotAllowed(let allowed):
            context.route = "(unmatched)"
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if method == .OPTIONS {
                return Routed(route: nil, context: context, immediate: finish(Response(status: 204, headers: ["Allow": allow]), context))
            }
            var error = HTTPError(status: 405, code: "method_not_allowed", message: "method \(method) is not allowed here")
            error.headers.add("Allow", allow)
            var response = renderError(error, path: path, context: context)
            response.headers.set("Allow", allow)
            return Routed(route: nil, context: context, immediate: response)
        case .notFound:
            context.route = "(unmatched)"
            return Routed(route: nil, context: context, immediate: renderError(HTTPError.notFound(), path: path, context: context))
        }
    }

    /// An error of the router or the transport, in the envelope of the dialect that owns
    /// the path (or Gatehouse's own).
    public func renderError(_ error: HTTPError, path: String, context: RequestContext) -> Response {
        let response = router.errorRenderer(for: path).map { $0(error, path, context) } ?? error.response(context: context)
        return finish(response, context)
    }

    /// Answers a request whose handler is inline, on the calling thread.
    public func respondInline(_ routed: Routed, request: Request) -> Response {
        if let immediate = routed.immediate { return immediate }
        guard let route = routed.route, case .inline(let handler) = route.handler else {
            preconditionFailure("respondInline called for an async route")
        }
        var context = routed.context
        var passed = 0
        let response: Response
        do {
            try before(route, request: request, context: &context, passed: &passed)
            response = try handler(request, context)
        } catch {
            response = render(error, context: context, path: request.rawPath)
        }
        return after(route, passed: passed, request: request, context: context, response: response)
    }

    /// Answers any request; async handlers may wait here without holding a server thread.
    public func respond(_ routed: Routed, request: Request) async -> Response {
        guard routed.immediate == nil, let route = routed.route, case .async(let handler) = route.handler else {
            return respondInline(routed, request: request)
        }
        var context = routed.context
        var passed = 0
        let response: Response
        do {
            for middleware in route.middleware {
                try await middleware.beforeAsync(request, context: &context)
                passed += 1
            }
            response = try await handler(request, context)
        } catch {
            response = render(error, context: context, path: request.rawPath)
        }
        return after(route, passed: passed, request: request, context: context, response: response)
    }

    /// Runs the `before` hooks in order, counting those that passed so that only their
    /// `after` hooks run.
    private func before(_ route: Route, request: Request, context: inout RequestContext, passed: inout Int) throws {
        for middleware in route.middleware {
            try middleware.before(request, context: &context)
            passed += 1
        }
    }

    private func after(_ route: Route, passed: Int, request: Request, context: RequestContext, response: Response) -> Response {
        var response = response
        for middleware in route.middleware.prefix(passed).reversed() {
            middleware.after(request, context: context, response: &response)
        }
        return finish(response, context)
    }

    /// Renders an error through the renderer of the path's dialect; where none is
    /// registered, only `HTTPResponseError`s reach the client and the rest are logged.
    public func render(_ error: any Error, context: RequestContext, path: String? = nil) -> Response {
        if let path, let renderer = router.errorRenderer(for: path) { return renderer(error, path, context) }
        if let error = error as? any HTTPResponseError { return error.response(context: context) }
        if let error = error as? BodyDecodingError { return HTTPError(error).response(context: context) }
        if let error = error as? DecodingError { return HTTPError(BodyDecodingError(error)).response(context: context) }
        errorLog(TransportLogEntry("unhandled error in \(context.route): \(String(reflecting: error))", requestID: context.requestID))
        return HTTPError.internalError.response(context: context)
    }

    func finish(_ response: Response, _ context: RequestContext) -> Response {
        var response = response
        if response.headers["X-Request-Id"] == nil {
            response.headers.add("X-Request-Id", context.requestID)
        } else {
            response.headers.set("X-Request-Id", context.requestID)
        }
        return response
    }
}
