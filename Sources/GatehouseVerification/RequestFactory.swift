import Foundation
import GatehouseWire
import GatehouseClientCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// GatehouseVerification's setup of the SDK's one HTTP client (DIDWW dialect): the declared
/// endpoints' URLs (`DIDWWWire.Endpoints`, under `<base>`), the app key's `Authorization`, the
/// SDK's `User-Agent`, the timeout, and the dialect's errors.
struct RequestFactory: Sendable {
    let http: HTTPClient
    let auth: AuthorizationMethod
    let timeout: TimeInterval

    var baseURL: URL { http.baseURL }

    init(baseURL: URL, auth: AuthorizationMethod, timeout: TimeInterval, transport: any Transport, logger: (any VerificationLogger)?) {
        http = HTTPClient(
            baseURL: baseURL, transport: transport,
            headers: ["Authorization": auth.headerValue, "User-Agent": SDKVersion.userAgent], accept: "application/json", timeout: timeout,
            logger: logger.map { logger in { @Sendable line in logger.log(line) } }, hooks: Self.hooks)
        self.auth = auth
        self.timeout = timeout
    }

    static let hooks = ErrorHooks(
        isSuccess: { ResponseDecoder.successStatuses.contains($0) },
        status: { ResponseDecoder.error(status: $0.status, body: $0.data, retryAfterHeader: $0.header("Retry-After")) },
        transport: VerificationClient.translate,
        decoding: { _, error in APIError.unexpectedResponse("could not decode response body: \(error)") },
        encoding: { _, error in APIError.unexpectedResponse("could not encode request body: \(error)") })

    /// A request for a declared endpoint (under the server's root), `values` filling its path.
    func request<Body: Encodable, Reply>(_ endpoint: Endpoint<Body, Reply>, _ values: [String: String] = [:], json value: Body? = nil) throws -> URLRequest {
        HTTPClient.request(endpoint.method.rawValue, http.url(endpoint, below: "", values), body: try value.map { try http.json($0) })
    }
}
