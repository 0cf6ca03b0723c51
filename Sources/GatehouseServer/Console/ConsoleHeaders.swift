import Foundation
import GatehouseHTTP

/// The headers every console response carries: a CSP that allows only the binary's own
/// script and style sheet (no inline script or style, no frames, no foreign forms), no
/// sniffing, no referrer, and no caching of pages (which show personal data).
enum ConsoleHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    static func apply(_ response: inout Response, cacheable: Bool = false) {
        response.headers.set("Content-Security-Policy", contentSecurityPolicy)
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("X-Frame-Options", "DENY")
        response.headers.set("Referrer-Policy", "no-referrer")
        response.headers.set("Cross-Origin-Opener-Policy", "same-origin")
        response.headers.set("Cross-Origin-Resource-Policy", "same-origin")
        if !cacheable { response.headers.set("Cache-Control", "no-store") }
    }
}

/// Runs around every console route: refuses a state-changing request that a browser says
/// came from another site (`Sec-Fetch-Site`), or, where the browser sends no such header,
/// whose `Origin` is not the console's; then puts the console's headers on the answer.
struct ConsoleRequestGuard: Middleware {
    /// `scheme://host[:port]` as operators reach the console, when configured; else the
    /// request's own `Host` must match the `Origin`'s authority.
    let origin: String?
    /// The listener's own host (`console-host`).
    let listenerHost: String

    func before(_ request: Request, context: inout RequestContext) throws {
        // Without a configured origin, the console answers only to loopback names and its
        // listener's host: a page of another name made to resolve here (DNS rebinding) gets
        // nothing, and the Host the checks below trust is one of those.
        if origin == nil, !answers(to: request.headers["Host"]) {
            throw ConsoleFailure.forbidden("This console answers to localhost and its listener's address; set console-public-url to reach it by another name.")
        }
        // A NUL goes nowhere: PostgreSQL refuses it in text, and no operator types one.
        for (name, value) in request.query where name.utf8.contains(0) || value.utf8.contains(0) {
            throw ConsoleFailure.invalid("The address holds a character no field takes.")
        }
        guard request.method != .GET, request.method != .HEAD else { return }
        if let site = request.headers["Sec-Fetch-Site"] {
            guard site == "same-origin" else { throw ConsoleFailure.forbidden("This form was sent from another site.") }
            return
        }
        guard let sent = request.headers["Origin"], sent != "null" else {
            throw ConsoleFailure.forbidden("The browser did not say where this form came from.")
        }
        if let origin {
            guard sent == origin else { throw ConsoleFailure.forbidden("This form was sent from another site.") }
        } else {
            let authority = sent.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: true).dropFirst().first.map(String.init)
            guard sent.hasPrefix("http://") || sent.hasPrefix("https://"), let authority, authority == request.headers["Host"] else {
                throw ConsoleFailure.forbidden("This form was sent from another site.")
            }
        }
    }

    /// Whether `host` (a Host header: name or address, maybe a port) names this console.
    func answers(to host: String?) -> Bool {
        guard let host, let parsed = URLComponents(string: "http://" + host)?.host?.lowercased() else { return false }
        let name = parsed.hasPrefix("[") && parsed.hasSuffix("]") ? String(parsed.dropFirst().dropLast()) : parsed
        let listener = listenerHost.lowercased()
        let wildcard = listener.isEmpty || listener == "0.0.0.0" || listener == "::"
        let loopbackIPv4 = name.hasPrefix("127.") && name.split(separator: ".").count == 4 && name.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
        return name == "localhost" || name == "::1" || loopbackIPv4 || (!wildcard && name == listener)
    }

    func after(_ request: Request, context: RequestContext, response: inout Response) {
        ConsoleHeaders.apply(&response, cacheable: request.path.hasPrefix("/assets/"))
    }
}
