import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The device calls of one flow over the SDK's HTTP client: `POST <gatehouse>/api/possession/v1/<op>` with a
/// JSON body and the flow's bearer (the authToken for `begin`, the device token after it).
struct DeviceAPI: Sendable {
    let http: HTTPClient
    /// `Authorization: Bearer` of every call; never logged.
    var bearer: String

    /// The API of the Gatehouse at `gatehouse` (its root; the base path is added).
    init(gatehouse: URL, bearer: String, transport: any Transport, logger: (@Sendable (String) -> Void)?) {
        var root = gatehouse.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        let base = URL(string: root + PossessionWire.basePath) ?? gatehouse
        http = HTTPClient(
            baseURL: base, transport: transport, headers: ["User-Agent": "gatehouse-possession-swift/\(PossessionAuth.sdkVersion)"],
            accept: "application/json", logger: logger, hooks: Self.hooks)
        self.bearer = bearer
    }

    /// Spends the authToken: the flow's device token, authId and first step.
    func begin(testMode: Bool) async throws -> PossessionWire.Session {
        try await post(PossessionWire.Endpoints.begin, PossessionWire.BeginRequest(testMode: testMode, sdkVersion: PossessionAuth.sdkVersion))
    }

    /// Posts `body` to the step's endpoint and returns the step that follows.
    func step<Body: Encodable>(_ endpoint: Endpoint<Body, PossessionWire.Step>, _ body: Body) async throws -> PossessionWire.Step {
        try await post(endpoint, body)
    }

    /// Tells Gatehouse the flow is over, best effort and apart from the caller's Task, so a cancelled
    /// authentication still ends its flow.
    func cancel() async {
        let api = self
        await Task.detached {
            _ = try? await api.http.response(api.request(PossessionWire.Endpoints.cancel, body: Data("{}".utf8), timeout: 10))
        }.value
    }

    private func post<Body: Encodable, Reply: Decodable>(_ endpoint: Endpoint<Body, Reply>, _ body: Body) async throws -> Reply {
        try await http.send(request(endpoint, body: try http.json(body)), as: Reply.self)
    }

    private func request<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, body: Data, timeout: TimeInterval? = nil) throws -> URLRequest {
        var request = HTTPClient.request(endpoint.method.rawValue, http.url(endpoint, below: PossessionWire.basePath), body: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        if let timeout { request.timeoutInterval = timeout }
        return request
    }

    /// Prove's `{"code","message"}` refusals as `PossessionAuthError`; a body that is not one keeps the HTTP status.
    static let hooks = ErrorHooks(
        status: { answer in
            guard let body = try? JSONDecoder().decode(ProveWire.ErrorBody.self, from: answer.data) else {
                return PossessionAuthError.server(code: answer.status, message: "HTTP \(answer.status)")
            }
            return PossessionAuthError(code: body.code, message: body.message)
        },
        transport: { PossessionAuthError($0) },
        decoding: { type, error in PossessionAuthError.unexpectedResponse("cannot decode \(type): \(error)") },
        encoding: { type, error in PossessionAuthError.unexpectedResponse("cannot encode \(type): \(error)") })
}
