import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Twilio's and Vonage's messaging and voice APIs, played by a local service
/// (`Tests/Fixtures/provider-apis/providers.py` on Flask) in a child process on 127.0.0.1.
/// Each endpoint checks a request as the provider's API reference describes it (path with the
/// account, authentication, content type, fields) and answers as the provider does, its
/// error bodies included. It needs Flask and cryptography.
///
/// ```swift
/// let apis = try await ProviderAPIs.start()
/// defer { apis.stop() }
/// try await apis.script(.twilioMessages, [.status(500)])    // the next answer is Twilio's 500
/// ... TwilioAccount(accountSid: ProviderAPIs.twilioAccountSid, authToken: ProviderAPIs.twilioAuthToken, baseURL: apis.baseURL) ...
/// let sent = try await apis.requests(.twilioMessages)
/// ```
public final class ProviderAPIs: @unchecked Sendable {
    public static let twilioAccountSid = "AC0123456789abcdef0123456789abcdef"
    public static let twilioAuthToken = "twilio-auth-token-0123456789abcdef"
    public static let twilioAPIKeySid = "SKfedcba9876543210fedcba9876543210"
    public static let twilioAPIKeySecret = "twilio-api-key-secret-0123456789"
    public static let vonageAPIKey = "a1b2c3d4"
    public static let vonageAPISecret = "vonage-api-secret-0123"
    public static let vonageApplicationId = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
    public static let vonageSignatureSecret = "vonage-signature-secret-0123456789abcdef"

    /// One of the APIs, for scripting its answers and reading what it received.
    public enum Target: String, Sendable {
        case twilioMessages = "twilio-messages", twilioCalls = "twilio-calls", vonageSMS = "vonage-sms", vonageCalls = "vonage-calls"
    }

    /// An answer the next request to a target gets instead of the real one.
    public enum ScriptedAnswer: Sendable {
        /// This HTTP status with the provider's own error body (429 adds `Retry-After: 2`; a
        /// Twilio 400 is error 21211, a Vonage Voice 400 a validation problem).
        case status(Int)
        /// Waits this long, then answers for real.
        case slow(TimeInterval)
        /// Closes the connection without an answer.
        case drop
        /// Vonage SMS only: a 200 whose message status is this (`1` throttled, `4` bad credentials…).
        case vonageStatus(String)

        var wire: String {
            switch self {
            case .status(let code): String(code)
            case .slow(let seconds): "slow:\(seconds)"
            case .drop: "drop"
            case .vonageStatus(let status): "refuse:\(status)"
            }
        }
    }

    /// A request as the service received it; credentials (`api_secret`, `sig`) read `<redacted>`.
    public struct ReceivedRequest: Decodable, Sendable {
        public let target: String
        public let method: String
        public let path: String
        public let contentType: String
        public let accept: String?
        /// `basic <user>`, `bearer` (the token was checked, not kept) or nil.
        public let authorization: String?
        /// Form fields in the order sent, for form-encoded requests.
        public let form: [[String]]?
        /// A JSON body, re-serialized with sorted keys.
        public let jsonText: String?
        /// The status answered (nil for a dropped connection or one still waiting).
        public let status: Int?
        public let answer: String?

        /// The form fields as (name, value) pairs.
        public var fields: [(String, String)] { (form ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil } }

        public func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

        enum CodingKeys: String, CodingKey {
            case target, method, path, contentType = "content_type", accept, authorization, form, jsonText = "json_text", status, answer
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            target = try c.decode(String.self, forKey: .target)
            method = try c.decode(String.self, forKey: .method)
            path = try c.decode(String.self, forKey: .path)
            contentType = try c.decode(String.self, forKey: .contentType)
            accept = try c.decodeIfPresent(String.self, forKey: .accept)
            authorization = try c.decodeIfPresent(String.self, forKey: .authorization)
            form = try c.decodeIfPresent([[String]].self, forKey: .form)
            jsonText = try c.decodeIfPresent(String.self, forKey: .jsonText)
            status = try? c.decodeIfPresent(Int.self, forKey: .status)  // "dropped" reads as nil
            answer = try c.decodeIfPresent(String.self, forKey: .answer)
        }
    }

    /// A status callback as the provider would send it, signed the provider's way.
    public struct SignedCallback: Decodable, Sendable {
        public let url: String
        public let body: String
        public let headers: [String: String]
    }

    public let baseURL: URL
    private let process: PythonFixtureProcess

    private init(process: PythonFixtureProcess) {
        self.process = process
        baseURL = URL(string: "http://127.0.0.1:\(process.port)")!
    }

    deinit { stop() }

    /// Starts the service on a free port. `arguments` are extra flags for providers.py, such as
    /// `["--twilio-auth-token", "other"]`.
    public static func start(arguments: [String] = []) async throws -> ProviderAPIs {
        ProviderAPIs(process: try await PythonFixtureProcess.start("provider-apis/providers.py", arguments: arguments, name: "provider APIs"))
    }

    /// Ends the service and waits until it has exited; later calls do nothing.
    public func stop() { process.stop() }

    /// `stop()` off the cooperative pool.
    public func shutdown() async { _ = try? await offPool { self.stop() } }

    /// Everything the service wrote so far (never credentials).
    public var output: String { process.output }

    // MARK: - Control

    /// Queues answers for the next requests to `target`, one each, in order.
    public func script(_ target: Target, _ answers: [ScriptedAnswer]) async throws {
        try await control("script", body: ["target": target.rawValue, "answers": answers.map(\.wire)])
    }

    /// The requests received since start or `reset()`, oldest first, of `target` or of all.
    public func requests(_ target: Target? = nil) async throws -> [ReceivedRequest] {
        let all = try JSONDecoder().decode([ReceivedRequest].self, from: try await control("requests", method: "GET"))
        return target.map { target in all.filter { $0.target == target.rawValue } } ?? all
    }

    /// Forgets received requests, scripted answers and used Vonage token ids.
    public func reset() async throws { try await control("reset") }

    /// The Vonage application's private key (PKCS#8 PEM), made when the service started.
    public func vonagePrivateKeyPEM() async throws -> String {
        struct Application: Decodable {
            let privateKey: String
            enum CodingKeys: String, CodingKey { case privateKey = "private_key" }
        }
        return try JSONDecoder().decode(Application.self, from: try await control("vonage-application", method: "GET")).privateKey
    }

    /// A signed status callback computed by the service. `kind`: `twilio-message`,
    /// `twilio-call`, `vonage-call`, `vonage-sms-jwt` or `vonage-sms-sig`; `extra` may set
    /// `error_code`, `timestamp`, `secret` (to sign with another) or `method` (`md5hash`, `sha256`…).
    public func statusCallback(kind: String, url: String, id: String, status: String, extra: [String: String] = [:]) async throws -> SignedCallback {
        var body: [String: Any] = ["kind": kind, "url": url, "id": id, "status": status]
        for (name, value) in extra { body[name] = value }
        return try JSONDecoder().decode(SignedCallback.self, from: try await control("status-callback", body: body))
    }

    @discardableResult
    private func control(_ action: String, method: String = "POST", body: [String: Any] = [:]) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent("_control/\(action)"))
        request.httpMethod = method
        if method == "POST" {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestSetupError("provider APIs /_control/\(action) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}
