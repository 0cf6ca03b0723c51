import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A local mobile operator for CAMARA Number Verification
/// (`Tests/Fixtures/camara-operator/operator.py`: Authlib's authorization code grant on Flask,
/// plus `/number-verification/v0/verify`), in a child process on 127.0.0.1. It needs Authlib:
/// `python3 -m pip install authlib==1.6.5`.
///
/// ```swift
/// let carrier = try await CamaraOperator.start(redirectURI: "http://127.0.0.1/api/possession/v1/camara/callback")
/// defer { carrier.stop() }   // or `await carrier.shutdown()` from async code
/// ... the test's carrier check sends `X-Test-Network: cellular` (and `X-Test-MSISDN`) on every hop ...
/// #expect(try await carrier.log().contains { $0.clientAuth == "client_secret_basic" })
/// ```
///
/// "Authenticated by the mobile network" means the request carries `X-Test-Network: cellular`
/// (on /authorize and on both /hop/1 and /hop/2); otherwise the answer is a 302 to the redirect
/// URI with `error=login_required`. The line's number is `X-Test-MSISDN`, else `msisdn`.
/// A redirect URI of `http://127.0.0.1/<path>` matches any port, so the operator can start
/// before the server whose callback it names.
public final class CamaraOperator: @unchecked Sendable {
    public static let defaultClientID = "gatehouse-camara"
    public static let defaultClientSecret = "camara-secret"
    public static let defaultRedirectURI = "http://127.0.0.1/api/possession/v1/camara/callback"
    public static let defaultMSISDN = "+447700900123"
    public static let scope = "number-verification:verify"

    /// One request the operator answered, from `/_control/log` (control calls excluded).
    public struct LogEntry: Decodable, Sendable {
        public let method: String
        public let path: String
        /// Whether `X-Test-Network: cellular` came with it; `network` is the header as sent.
        public let cellular: Bool
        public let network: String?
        public let status: Int
        /// The redirect it answered with, any `code` value masked as `[redacted]`.
        public let location: String?
        /// /authorize: the query as received, and the MSISDN the code was bound to (cellular only).
        public let clientID: String?
        public let redirectURI: String?
        public let scope: String?
        public let state: String?
        public let prompt: String?
        public let loginHint: String?
        public let msisdn: String?
        /// /token: the grant type, and how the client authenticated: `client_secret_basic`,
        /// `client_secret_post`, both space-separated, or `none`.
        public let grantType: String?
        public let clientAuth: String?
        /// /verify: the JSON body when it was an object of strings (`phoneNumber` or
        /// `hashedPhoneNumber`), and the `X-Correlator` sent.
        public let body: [String: String]?
        public let correlator: String?

        enum CodingKeys: String, CodingKey {
            case method, path, cellular, network, status, location, clientID = "client_id", redirectURI = "redirect_uri", scope, state
            case prompt, loginHint = "login_hint", msisdn, grantType = "grant_type", clientAuth = "client_auth", body, correlator
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            method = try c.decode(String.self, forKey: .method)
            path = try c.decode(String.self, forKey: .path)
            cellular = try c.decode(Bool.self, forKey: .cellular)
            status = try c.decode(Int.self, forKey: .status)
            func text(_ key: CodingKeys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
            network = try text(.network)
            location = try text(.location)
            clientID = try text(.clientID)
            redirectURI = try text(.redirectURI)
            scope = try text(.scope)
            state = try text(.state)
            prompt = try text(.prompt)
            loginHint = try text(.loginHint)
            msisdn = try text(.msisdn)
            grantType = try text(.grantType)
            clientAuth = try text(.clientAuth)
            correlator = try text(.correlator)
            // Tests send malformed bodies on purpose (arrays, numbers): those are simply not kept.
            body = try? c.decodeIfPresent([String: String].self, forKey: .body)
        }
    }

    public let baseURL: URL
    public let authorizationEndpoint: URL
    public let tokenEndpoint: URL
    /// `…/number-verification/v0`; the verify call is `apiBase/verify`.
    public let apiBase: URL
    public let clientID: String
    public let clientSecret: String
    public let redirectURI: String
    /// The line's number when a request carries no `X-Test-MSISDN`.
    public let msisdn: String
    private let process: PythonFixtureProcess

    private init(process: PythonFixtureProcess, clientID: String, clientSecret: String, redirectURI: String, msisdn: String) {
        self.process = process
        baseURL = URL(string: "http://127.0.0.1:\(process.port)")!
        authorizationEndpoint = baseURL.appendingPathComponent("authorize")
        tokenEndpoint = baseURL.appendingPathComponent("token")
        apiBase = baseURL.appendingPathComponent("number-verification/v0")
        (self.clientID, self.clientSecret, self.redirectURI, self.msisdn) = (clientID, clientSecret, redirectURI, msisdn)
    }

    deinit { stop() }

    /// Starts an operator on a free port with one confidential client. `arguments` are extra
    /// flags for operator.py, such as `["--access-ttl", "5"]`.
    public static func start(
        clientID: String = defaultClientID, clientSecret: String = defaultClientSecret, redirectURI: String = defaultRedirectURI,
        msisdn: String = defaultMSISDN, arguments: [String] = []
    ) async throws -> CamaraOperator {
        let flags = ["--client-id", clientID, "--client-secret", clientSecret, "--redirect-uri", redirectURI, "--msisdn", msisdn]
        let process = try await PythonFixtureProcess.start("camara-operator/operator.py", arguments: flags + arguments, name: "CAMARA operator")
        return CamaraOperator(process: process, clientID: clientID, clientSecret: clientSecret, redirectURI: redirectURI, msisdn: msisdn)
    }

    /// Ends the operator and waits until it has exited; later calls do nothing. Blocking, so
    /// `deinit` can use it; from async code prefer `shutdown()`.
    public func stop() {
        process.stop()
    }

    /// `stop()` on a thread of its own: its wait must not hold one of the cooperative pool's
    /// (two, on the CI machines) threads.
    public func shutdown() async {
        _ = try? await offPool { self.stop() }
    }

    /// Everything the operator wrote to stdout and stderr so far (never codes or tokens).
    public var output: String { process.output }

    // MARK: - Control

    /// Every request answered since start or the last `reset()`, in order.
    public func log() async throws -> [LogEntry] {
        struct Answer: Decodable { let requests: [LogEntry] }
        return try JSONDecoder().decode(Answer.self, from: try await control("log", method: "GET")).requests
    }

    /// Forgets the log and every code, hop and access token issued.
    public func reset() async throws { try await control("reset") }

    /// Every access token issued so far is refused from now on (401 `UNAUTHENTICATED`).
    public func expireTokens() async throws { try await control("expire-tokens") }

    @discardableResult
    private func control(_ action: String, method: String = "POST") async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent("_control/\(action)"))
        request.httpMethod = method
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestSetupError("CAMARA operator /_control/\(action) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}
