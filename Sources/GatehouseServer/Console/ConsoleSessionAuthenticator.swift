import Foundation
import GatehouseConsoleEngine
import GatehouseCrypto
import GatehouseHTTP

/// The console's credential: the session cookie, checked against the console engine's
/// sessions (idle and absolute timeouts included). A page behind it gets the session typed.
struct ConsoleSessionAuthenticator: Authenticator {
    let console: ConsoleEngine
    let cookie: ConsoleCookie
    let credential = "console-session"

    func authenticate(_ request: Request, context: RequestContext) async throws -> ConsoleSession {
        guard let token = cookie.token(in: request.headers), let session = try await console.session(token: token) else {
            throw ConsoleFailure.signInNeeded
        }
        return session
    }
}

/// The session cookie: `__Host-` prefixed and `Secure` when operators reach the console over
/// TLS, always `HttpOnly`, `SameSite=Strict`, for the whole console and no other host.
struct ConsoleCookie: Sendable {
    let secure: Bool

    var name: String { secure ? "__Host-gatehouse-console" : "gatehouse-console" }

    func setting(_ token: String) -> String {
        "\(name)=\(token); Path=/; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")"
    }

    var clearing: String { "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")" }

    /// The token among the request's cookies (RFC 6265 §5.4: `name=value` pairs split by `;`).
    func token(in headers: HTTPHeaders) -> String? { Self.value(name, in: headers) }

    static func value(_ name: String, in headers: HTTPHeaders) -> String? {
        for header in headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}

/// A console form as its handler reads it: the body's fields, once the session's token in the
/// `csrf` field matched (compared in constant time).
struct ConsoleForm {
    let fields: [String: String]

    init(_ request: Request, session: ConsoleSession) throws {
        try self.init(request, token: session.csrfToken)
    }

    init(_ request: Request, token: String) throws {
        let form: URLEncodedForm
        do {
            form = try URLEncodedForm(request)
        } catch {
            throw ConsoleFailure.invalid("The form could not be read.")
        }
        guard let sent = form["csrf"], constantTimeEquals(Array(sent.utf8), Array(token.utf8)) else {
            throw ConsoleFailure.forbidden("The form's token is missing or out of date: reload the page and try again.")
        }
        // A NUL goes nowhere: PostgreSQL refuses it in text, and no operator types one.
        guard !form.fields.contains(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }) else {
            throw ConsoleFailure.invalid("A field holds a character no field takes.")
        }
        fields = form.fields
    }

    subscript(name: String) -> String { fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
}
