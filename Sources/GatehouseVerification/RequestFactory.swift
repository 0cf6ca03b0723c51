import Foundation
import GatehouseClientCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// GatehouseVerification's setup of the SDK's one HTTP client (DIDWW dialect): URLs under
/// `<base>/api/v1`, the app key's `Authorization`, the SDK's `User-Agent`, the timeout, and the
/// dialect's errors.
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

    /// `<base>/api/v1/<components>`, each component percent-encoded on its own.
    func url(_ components: [String]) -> URL {
        http.url(components: ["api", "v1"] + components)
    }

    /// A request; headers and `Content-Type` (only with a body) are added when it is sent.
    func request(_ method: String, _ components: [String], body: Data? = nil) -> URLRequest {
        HTTPClient.request(method, url(components), body: body)
    }

    /// A request whose body is `value` encoded with a default `JSONEncoder`.
    func request(_ method: String, _ components: [String], json value: some Encodable) throws -> URLRequest {
        request(method, components, body: try http.json(value))
    }
}
