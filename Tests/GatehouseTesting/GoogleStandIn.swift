import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Google's side of the Play store for tests (`Tests/Fixtures/google-play/standin.py`, in a
/// child process on 127.0.0.1): the OAuth token endpoint of a service account's JWT bearer
/// grant, whose assertions google-auth's own `jwt.decode` checks against the keys registered
/// here, and the Play Developer API's purchases, answering only the tokens it issued, from
/// fixtures checked against the API's discovery document. It needs google-auth and
/// google-api-python-client (`scripts/install-deps.sh test`).
///
/// ```swift
/// let google = try await GoogleStandIn.start()
/// defer { google.stop() }
/// try await google.register(keyFile)        // the service account Google knows
/// ... point the engine's token URL at google.tokenURL ...
/// #expect(try await google.log().filter { $0.status == 200 }.count == 1)
/// ```
public final class GoogleStandIn: @unchecked Sendable {
    /// One request the stand-in answered (control calls excluded).
    public struct LogEntry: Decodable, Sendable {
        public let path: String
        public let status: Int
        /// Play API calls: the method, the package and the custom method (`acknowledge`, `consume`).
        public let method: String?
        public let package: String?
        public let verb: String?
        public let grantType: String?
        /// The assertion's header `kid` and `alg`, and its `iss` and `scope`, as sent.
        public let kid: String?
        public let alg: String?
        public let iss: String?
        public let scope: String?
        /// `exp - iat` of an accepted assertion.
        public let lifetime: Int?
        /// Why google-auth refused the assertion.
        public let error: String?
        /// The query of a `voidedpurchases.list` call.
        public let query: [String: String]?
    }

    public let baseURL: URL
    public let tokenURL: URL
    /// Google's certificates of the keys that sign push tokens (`{kid: PEM}`).
    public let certificatesURL: URL
    private let process: PythonFixtureProcess

    private init(process: PythonFixtureProcess) {
        self.process = process
        baseURL = URL(string: "http://127.0.0.1:\(process.port)")!
        tokenURL = baseURL.appendingPathComponent("token")
        certificatesURL = baseURL.appendingPathComponent("oauth2/v1/certs")
    }

    deinit { stop() }

    public static func start() async throws -> GoogleStandIn {
        GoogleStandIn(process: try await PythonFixtureProcess.start("google-play/standin.py", arguments: [], name: "Google stand-in"))
    }

    /// Ends the process and waits until it has exited; later calls do nothing.
    public func stop() { process.stop() }

    /// `stop()` off the cooperative pool.
    public func shutdown() async { _ = try? await offPool { self.stop() } }

    /// Makes the service account of `file` known, with the public half of its key.
    public func register(_ file: GoogleServiceAccountKeyFile) async throws {
        try await control("accounts", ["\(file.clientEmail)": ["kid": file.privateKeyID, "publicKeyPEM": file.publicKeyPEM]])
    }

    /// From now on the token endpoint answers `status` to everything (nil: answers normally).
    public func failTokens(with status: Int?) async throws {
        try await control("configure", ["tokenStatus": status.map { $0 as Any } ?? NSNull()])
    }

    /// Every access token issued so far is refused by the API from now on (401).
    public func revokeTokens() async throws { try await control("revoke-tokens", [:]) }

    /// The `expires_in` of the tokens issued from now on.
    public func issueTokens(lasting seconds: Int) async throws {
        try await control("configure", ["expiresIn": seconds])
    }

    /// Makes purchases known to the API: `subscriptions` by token (`SubscriptionPurchaseV2`
    /// JSON) and `products` as (product id, token, `ProductPurchase` JSON). Throws, listing the
    /// problems, when one is not what the discovery document allows.
    public func add(package: String, subscriptions: [String: [String: Any]] = [:], products: [(String, String, [String: Any])] = []) async throws {
        let items = products.map { ["productId": $0.0, "token": $0.1, "purchase": $0.2] as [String: Any] }
        try await control("purchases", ["package": package, "subscriptions": subscriptions, "products": items])
    }

    /// The purchase as the API would answer it now (after acknowledge and consume calls); nil when unknown.
    public func purchase(package: String, token: String, productID: String? = nil) async throws -> [String: Any]? {
        var components = URLComponents(url: baseURL.appendingPathComponent("_control/purchase"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "package", value: package), URLQueryItem(name: "token", value: token)]
            + (productID.map { [URLQueryItem(name: "productId", value: $0)] } ?? [])
        let (data, response) = try await URLSession.shared.data(from: components.url!)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { return nil }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// Voided purchases that `voidedpurchases.list` will report (`VoidedPurchase` JSON, checked
    /// against the discovery document); `subscription` ones only with `type=1`.
    public func addVoided(package: String, _ voided: [(purchase: [String: Any], subscription: Bool)]) async throws {
        try await control("voided", ["package": package, "voided": voided.map { ["purchase": $0.purchase, "subscription": $0.subscription] as [String: Any] }])
    }

    /// From now on acknowledge and consume calls answer `status` (nil: answer normally); reads are unaffected.
    public func failSettlements(with status: Int?) async throws {
        try await control("configure", ["settleStatus": status.map { $0 as Any } ?? NSNull()])
    }

    /// From now on the Play API answers `status` to every call with a valid token (nil: answers normally).
    public func failAPI(with status: Int?) async throws {
        try await control("configure", ["apiStatus": status.map { $0 as Any } ?? NSNull()])
    }

    /// A Pub/Sub push token minted by google-auth with the newest push key: Google's claims for
    /// `audience` and `email`, with `claims` merged over them (`NSNull()` removes one).
    public func pushToken(audience: String, email: String, claims: [String: Any] = [:]) async throws -> String {
        let data = try await control("push-token", ["audience": audience, "email": email, "claims": claims])
        guard let token = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String else {
            throw TestSetupError("no push token")
        }
        return token
    }

    /// The certificates Google publishes now, by `kid`.
    public func certificates() async throws -> [String: String] {
        let (data, _) = try await URLSession.shared.data(from: certificatesURL)
        guard let certificates = try JSONSerialization.jsonObject(with: data) as? [String: String] else { throw TestSetupError("no certificates") }
        return certificates
    }

    /// A new push signing key, which tokens are minted with from now on; the old one stays published.
    public func rotatePushKey() async throws { try await control("rotate-push-key", [:]) }

    /// Every request answered since start, in order.
    public func log() async throws -> [LogEntry] {
        try JSONDecoder().decode([LogEntry].self, from: try await control("log", nil))
    }

    @discardableResult
    private func control(_ action: String, _ body: [String: Any]?) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent("_control/\(action)"))
        if let body {
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestSetupError("Google stand-in /_control/\(action) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}
