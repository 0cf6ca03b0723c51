import GatehouseHTML
import GatehouseHTTP

/// Why the console answered with something other than the page asked for. Each renders as a
/// page of the console (or a redirect), never as JSON.
enum ConsoleFailure: Error, Equatable {
    /// No live session: to the sign-in page.
    case signInNeeded
    /// A destructive action with no recent password: to the confirmation page, then back.
    case confirmationNeeded(returnTo: String)
    /// A cross-site request, a missing or wrong form token, or a viewer acting.
    case forbidden(String)
    case notFound
    /// A form that cannot be read or whose values are refused, said in words for the operator.
    case invalid(String)
    case tooManyRequests(retryAfter: Int)
}

extension ConsoleFailure {
    /// The page or redirect for this failure, with the console's headers.
    func response(requestID: String) -> Response {
        switch self {
        case .signInNeeded: return ConsolePage.redirect(to: "/sign-in")
        case .confirmationNeeded(let returnTo): return ConsolePage.redirect(to: "/confirm?next=" + ConsolePage.queryEscaped(returnTo))
        case .forbidden(let why): return ConsolePage.problem(status: 403, title: "Forbidden", why, requestID: requestID)
        case .notFound: return ConsolePage.problem(status: 404, title: "Not found", "There is no such page or record.", requestID: requestID)
        case .invalid(let why): return ConsolePage.problem(status: 400, title: "Not accepted", why, requestID: requestID)
        case .tooManyRequests(let retryAfter):
            var response = ConsolePage.problem(status: 429, title: "Too many requests", "Wait \(retryAfter) s and try again.", requestID: requestID)
            response.headers.set("Retry-After", String(retryAfter))
            return response
        }
    }

    /// Any error thrown under the console, as a page: the console's own, the transport's
    /// (`HTTPError`: 404, 405, 413, …), and anything else as a 500 that shows only the request id.
    static func render(_ error: any Error, context: RequestContext, log: (any Error) -> Void) -> Response {
        if let failure = error as? ConsoleFailure { return failure.response(requestID: context.requestID) }
        if let http = error as? HTTPError {
            var response = ConsolePage.problem(status: http.status, title: "Refused", http.message, requestID: context.requestID)
            for (name, value) in http.headers where name.lowercased() != "www-authenticate" { response.headers.set(name, value) }
            return response
        }
        log(error)
        return ConsolePage.problem(status: 500, title: "Something went wrong", "The server could not answer this request.", requestID: context.requestID)
    }
}
