import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseCrypto
import GatehouseOutbound
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting

/// A browser's part in the console's HTTP tests, over libcurl (which follows no redirect):
/// a cookie jar, the form token of the last page, and the same-origin headers a browser sends
/// on a form, each of which a test can leave out or forge.
final class ConsoleVisitor: @unchecked Sendable {
    struct Page {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: String

        func header(_ name: String) -> String? { headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        var location: String? { header("Location") }
        /// The value of the first `name="csrf"` field on the page.
        var csrf: String? {
            guard let range = body.range(of: "name=\"csrf\" value=\"") else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    let base: String
    private let http = CurlHTTPClient()
    private(set) var cookies: [String: String] = [:]

    init(port: UInt16) { base = "http://127.0.0.1:\(port)" }

    convenience init(_ live: LiveServer) throws {
        guard let server = live.app.consoleServer else { throw TestSetupError("the console is not listening") }
        self.init(port: server.port)
    }

    func get(_ path: String) async throws -> Page {
        try await send("GET", path, body: nil, headers: [])
    }

    /// A form as a browser sends it from a console page: same-origin, with the page's token
    /// unless the fields carry their own.
    func post(_ path: String, _ fields: [String: String], csrf: String?, headers: [(String, String)]? = nil) async throws -> Page {
        var all = fields
        if let csrf, all["csrf"] == nil { all["csrf"] = csrf }
        let body = all.sorted { $0.key < $1.key }.map { Self.escaped($0.key) + "=" + Self.escaped($0.value) }.joined(separator: "&")
        return try await send("POST", path, body: Data(body.utf8), headers: (headers ?? [("Sec-Fetch-Site", "same-origin"), ("Origin", base)])
            + [("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// Signs in through the sign-in form with the password and the code for `now`.
    @discardableResult
    func signIn(email: String, password: String, totpURI: String, at now: Date) async throws -> Page {
        let form = try await get("/sign-in")
        return try await post("/sign-in", ["email": email, "password": password, "code": Self.code(totpURI, at: now)], csrf: form.csrf)
    }

    static func code(_ totpURI: String, at now: Date) -> String {
        let secret = URLComponents(string: totpURI)?.queryItems?.first { $0.name == "secret" }?.value ?? ""
        return TOTP(secret: Base32.decode(secret) ?? []).code(at: now)
    }

    func send(_ method: String, _ path: String, body: Data?, headers: [(String, String)]) async throws -> Page {
        // As patient as the suite's other clients: under the whole suite's load on two cores a
        // page can wait many seconds for its first byte (libcurl's low-speed limit would cut it at 15).
        var request = OutboundRequest(url: URL(string: base + path)!, timeoutInterval: 120)
        request.lowSpeedSeconds = 120
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        if !cookies.isEmpty {
            request.setValue(cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie")
        }
        let (data, response): (Data, OutboundResponse)
        do {
            (data, response) = try await http.send(request)
        } catch {
            throw TestSetupError("\(method) \(path): \(error)")
        }
        for (name, value) in response.headerFields where name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
            let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            if value.contains("Max-Age=0") { cookies[String(pair[0])] = nil } else { cookies[String(pair[0])] = String(pair[1]) }
        }
        return Page(status: response.statusCode, headers: response.headerFields, body: String(decoding: data, as: UTF8.self))
    }

    static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
