import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseWire
import GatehouseFormats

/// A server-side client of the v3 API, as an app's backend runs it: it fetches its bearer
/// token with the client credentials itself and renews it a minute before it expires (one
/// fetch at a time), and sends Start, Validate, Challenge and Complete.
public actor ProveClient {
    public struct Failure: Error, Equatable, Sendable {
        public let status: Int
        public let code: Int?
        public let message: String
    }

    let baseURL: URL
    let clientID: String
    let clientSecret: String
    let http: any OutboundHTTP
    let now: @Sendable () -> Date
    private var token: (value: String, renewAt: Date)?
    private var fetching: Task<String, any Error>?

    /// Each call must be answered within `timeout` (15 s unless told); no redirect is
    /// followed (a backend's credentials go only where it was configured to send them).
    let timeout: TimeInterval
    /// The per-call deadline a client is given unless told otherwise: 15 s.
    public static let defaultTimeout: TimeInterval = 15

    public init(
        baseURL: URL, clientID: String, clientSecret: String, http: any OutboundHTTP = CurlHTTPClient(),
        timeout: TimeInterval = ProveClient.defaultTimeout, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.http = http
        self.now = now
    }

    public func start(_ request: ProveWire.StartRequest) async throws -> ProveWire.StartResponse { try await call(ProveWire.Endpoints.start, request) }
    public func validate(correlationId: String) async throws -> ProveWire.ValidateResponse {
        try await call(ProveWire.Endpoints.validate, ProveWire.ValidateRequest(correlationId: correlationId))
    }
    public func challenge(_ request: ProveWire.ChallengeRequest) async throws -> ProveWire.ChallengeResponse { try await call(ProveWire.Endpoints.challenge, request) }
    public func complete(_ request: ProveWire.CompleteRequest) async throws -> ProveWire.CompleteResponse { try await call(ProveWire.Endpoints.complete, request) }

    /// How many bearer tokens this client has fetched (for tests of renewal).
    public private(set) var tokensFetched = 0

    private func call<Body: Encodable, Reply: Decodable>(_ endpoint: Endpoint<Body, Reply>, _ body: Body) async throws -> Reply {
        var retried = false
        while true {
            var request = OutboundRequest(url: baseURL.appendingPathComponent(endpoint.path()), timeoutInterval: timeout)
            request.httpMethod = endpoint.method.rawValue
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer " + (try await bearer()), forHTTPHeaderField: "Authorization")
            request.httpBody = try JSONEncoder().encode(body)
            let (data, response) = try await send(request)
            // A token the server no longer takes (revoked, or a restart with another key) is fetched again once.
            if response.statusCode == 401, !retried {
                retried = true
                token = nil
                continue
            }
            guard response.statusCode == 200 else { throw Self.failure(data, response) }
            return try JSONDecoder().decode(Reply.self, from: data)
        }
    }

    private func bearer() async throws -> String {
        if let token, token.renewAt > now() { return token.value }
        if let fetching { return try await fetching.value }
        let task = Task { try await fetchToken() }
        fetching = task
        defer { fetching = nil }
        return try await task.value
    }

    private func fetchToken() async throws -> String {
        let endpoint = ProveWire.Endpoints.token
        var request = OutboundRequest(url: baseURL.appendingPathComponent(endpoint.path()), timeoutInterval: timeout)
        request.httpMethod = endpoint.method.rawValue
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(PercentEncoding.form([("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", clientSecret)]).utf8)
        let (data, response) = try await send(request)
        guard response.statusCode == 200 else { throw Self.failure(data, response) }
        let reply = try JSONDecoder().decode(ProveWire.TokenResponse.self, from: data)
        tokensFetched += 1
        token = (reply.accessToken, now().addingTimeInterval(TimeInterval(max(reply.expiresIn - 60, reply.expiresIn / 2))))
        return reply.accessToken
    }

    private func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse) {
        var request = request
        request.connectTimeout = 5
        request.maxResponseBytes = 1 << 20
        return try await http.send(request)
    }

    static func failure(_ data: Data, _ response: OutboundResponse) -> Failure {
        let body = try? JSONDecoder().decode(ProveWire.ErrorBody.self, from: data)
        return Failure(status: response.statusCode, code: body?.code, message: body?.message ?? "status \(response.statusCode)")
    }
}
