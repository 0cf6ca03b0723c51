import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A real OAuth 2.0 authorization server and the protected "third-party API" behind it
/// (`Tests/Fixtures/oauth-provider/provider.py`: Authlib's server grants on Flask), in a child
/// process on 127.0.0.1. It needs Authlib: `python3 -m pip install authlib==1.6.5`.
///
/// ```swift
/// let provider = try await OAuthTestProvider.start()
/// defer { provider.stop() }
/// ... send the app's authorization URL through provider.approveConsent(authorizationURL:) ...
/// try await provider.expireAll()
/// #expect(try await provider.stats().tokenRequests.refreshToken == 1)
/// ```
///
/// Clients it knows (unless `arguments` change them): the public client `device-app`
/// (authorization code with PKCE S256, refresh tokens that rotate, redirect URIs
/// `com.example.app:/oauth/callback` and `http://127.0.0.1:<any port>/callback`, scopes
/// `read write admin`) and the confidential client `server-app` / `server-secret`
/// (client credentials, `client_secret_basic` or `client_secret_post`, scopes `read write`).
public final class OAuthTestProvider: @unchecked Sendable {
    public static let publicClientID = "device-app"
    public static let customSchemeRedirectURI = "com.example.app:/oauth/callback"
    public static let confidentialClientID = "server-app"
    public static let confidentialClientSecret = "server-secret"
    public static let basicUser = "proxyuser"
    public static let basicPassword = "proxy-pass"
    public static let staticBearer = "static-bearer-token"
    public static let apiKey = "static-api-key-123"

    /// What `/control/stats` reports.
    public struct Stats: Decodable, Sendable {
        public struct TokenRequests: Decodable, Sendable {
            public let authorizationCode: Int
            public let refreshToken: Int
            public let clientCredentials: Int

            enum CodingKeys: String, CodingKey {
                case authorizationCode = "authorization_code", refreshToken = "refresh_token", clientCredentials = "client_credentials"
            }
        }

        /// GETs of the authorization endpoint.
        public let authorizeRequests: Int
        /// Consent POSTs carrying `prompt=login` or `prompt=consent`.
        public let forcedPrompts: Int
        /// Token requests per grant type, failed ones included.
        public let tokenRequests: TokenRequests
        /// Calls the API answered (echoes).
        public let apiRequests: Int
        /// Calls the API refused (401/403 from /api and /static).
        public let apiRejections: Int
        public let lastAPIRequest: Echo?

        enum CodingKeys: String, CodingKey {
            case authorizeRequests = "authorize_requests", forcedPrompts = "forced_prompts", tokenRequests = "token_requests"
            case apiRequests = "api_requests", apiRejections = "api_rejections", lastAPIRequest = "last_api_request"
        }
    }

    /// The API's answer: the request as the provider received it.
    public struct Echo: Decodable, Sendable {
        public let ok: Bool
        public let method: String
        /// The path as received, percent-encoding kept.
        public let path: String
        /// The raw query string, without `?`.
        public let query: String
        /// Every header received, names lower-cased (repeated headers joined by `,`).
        public let headers: [String: String]
        public let body: String
        /// `oauth`, `basic`, `bearer`, `api_key_header`, `api_key_query` or `none`.
        public let credential: String
        /// For `oauth`: the token's subject (nil for client credentials), client and scope.
        public let subject: String?
        public let clientID: String?
        public let scope: String?

        public func header(_ name: String) -> String? { headers[name.lowercased()] }

        enum CodingKeys: String, CodingKey {
            case ok, method, path, query, headers, body, credential, subject, clientID = "client_id", scope
        }
    }

    public let baseURL: URL
    public let authorizationEndpoint: URL
    public let tokenEndpoint: URL
    private let process: PythonFixtureProcess

    private init(process: PythonFixtureProcess) {
        self.process = process
        baseURL = URL(string: "http://127.0.0.1:\(process.port)")!
        authorizationEndpoint = baseURL.appendingPathComponent("oauth/authorize")
        tokenEndpoint = baseURL.appendingPathComponent("oauth/token")
    }

    deinit { stop() }

    /// Starts a provider on a free port. `arguments` are extra flags for provider.py, such as
    /// `["--access-ttl", "5"]` or `["--api-key", "other"]`.
    public static func start(arguments: [String] = []) async throws -> OAuthTestProvider {
        OAuthTestProvider(process: try await PythonFixtureProcess.start("oauth-provider/provider.py", arguments: arguments, name: "OAuth test provider"))
    }

    /// Ends the provider and waits until it has exited; later calls do nothing.
    public func stop() {
        process.stop()
    }

    /// Everything the provider wrote to stdout and stderr so far (it never logs tokens or codes).
    public var output: String { process.output }

    // MARK: - Control

    public func stats() async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await control("stats", method: "GET"))
    }

    public func resetStats() async throws { try await control("reset-stats") }

    /// The lifetime of access tokens issued from now on (`expires_in`).
    public func setAccessTTL(_ seconds: Int) async throws { try await control("access-ttl", ["seconds": seconds]) }

    /// Expires every access token issued so far; refresh tokens stay valid.
    public func expireAll() async throws { try await control("expire-all") }

    /// Revokes every access and refresh token (and unused code) and forgets every consent: the
    /// next refresh is `invalid_grant`, the next `prompt=none` is `interaction_required`.
    public func revokeAll() async throws { try await control("revoke-all") }

    /// The next `count` calls to /api/ answer 401 `invalid_token`, whatever token they carry.
    public func failNextAPI(count: Int) async throws { try await control("fail-next-api", ["count": count]) }

    /// Each token request waits this long before it is handled (0 to stop).
    public func setTokenDelay(_ seconds: Double) async throws { try await control("token-delay", ["seconds": seconds]) }

    @discardableResult
    private func control(_ action: String, method: String = "POST", _ body: [String: Any]? = nil) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent("control/\(action)"))
        request.httpMethod = method
        if method == "POST" {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body ?? [:])
        }
        let (data, response) = try await NoRedirectExchange.send(request)
        guard response.statusCode == 200 else {
            throw TestSetupError("OAuth test provider /control/\(action) answered \(response.statusCode): \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }

    // MARK: - Browser

    /// Plays the browser on the consent page: GETs `authorizationURL` (200, or a redirect when
    /// `prompt=none` settles it at once, whose `Location` is returned), then POSTs that
    /// query plus `decision` and `sub` to the same endpoint and returns the `Location` of the
    /// 302 (the redirect URI with `code` and `state`, or with `error`). Redirects are never followed.
    public func approveConsent(authorizationURL: URL, decision: String = "approve", sub: String = "user-1") async throws -> URL {
        let (page, first) = try await NoRedirectExchange.send(URLRequest(url: authorizationURL))
        if (300..<400).contains(first.statusCode) { return try Self.location(of: first) }
        guard first.statusCode == 200 else {
            throw TestSetupError("authorization request answered \(first.statusCode): \(String(decoding: page, as: UTF8.self))")
        }
        guard var components = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false) else {
            throw TestSetupError("not a URL: \(authorizationURL)")
        }
        // The query goes into the form as it stands, so the server decodes both alike (`+` included).
        let fields = [components.percentEncodedQuery ?? "", "decision=\(Self.formEncoded(decision))", "sub=\(Self.formEncoded(sub))"]
        components.query = nil
        components.fragment = nil
        var request = URLRequest(url: components.url ?? authorizationURL)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(fields.filter { !$0.isEmpty }.joined(separator: "&").utf8)
        let (body, answer) = try await NoRedirectExchange.send(request)
        guard answer.statusCode == 302 else {
            throw TestSetupError("consent POST answered \(answer.statusCode): \(String(decoding: body, as: UTF8.self))")
        }
        return try Self.location(of: answer)
    }

    private static func location(of response: HTTPURLResponse) throws -> URL {
        guard let value = response.value(forHTTPHeaderField: "Location"),
            let url = URL(string: value, relativeTo: response.url)?.absoluteURL
        else { throw TestSetupError("\(response.statusCode) without a usable Location header") }
        return url
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    private static func formEncoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// One request over a URLSession of its own whose delegate refuses every redirect, so a 3xx
/// (often to an app's custom scheme or a loopback port nobody listens on) is the answer. The
/// task is delegate-driven, not completion-handler-driven, so FoundationNetworking consults
/// the delegate too.
private final class NoRedirectExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var received = Data()
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?

    static func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let exchange = NoRedirectExchange()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            exchange.lock.withLock { exchange.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data) = lock.withLock { () -> (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, Data) in
            defer { self.continuation = nil }
            return (self.continuation, received)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else if let response = task.response as? HTTPURLResponse {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}
