import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// GatehouseAuth's setup of the SDK's one HTTP client (Datacove dialect): `X-App-Version`, JSON,
/// contract paths relative to the `/api` base, and every failure as `AuthError` or `CancellationError`.
enum AuthHTTP {
    static func client(baseURL: URL, transport: any Transport, appVersion: String?, logger: (@Sendable (String) -> Void)?) -> HTTPClient {
        HTTPClient(
            baseURL: baseURL, transport: transport, headers: appVersion.map { ["X-App-Version": $0] } ?? [:], accept: "application/json",
            logger: logger, hooks: hooks)
    }

    static let hooks = ErrorHooks(
        status: { apiError(status: $0.status, data: $0.data, response: $0.response) },
        transport: { map($0) },
        decoding: { type, error in AuthError.unexpectedResponse("cannot decode \(type): \(error)") },
        encoding: { type, error in AuthError.invalidRequest("cannot encode \(type): \(error)") })

    /// A relative request with an optional JSON body, resolved under the base when sent.
    static func request(_ method: String, _ path: String, body: (some Encodable)? = nil as String?) throws -> URLRequest {
        var data: Data?
        if let body {
            do {
                data = try JSONEncoder().encode(body)
            } catch {
                throw hooks.encoding(type(of: body), error)
            }
        }
        guard let request = HTTPClient.request(method, path: path, body: data) else { throw AuthError.invalidRequest(path) }
        return request
    }

    /// A relative request for a declared endpoint, `values` filling its path parameters.
    static func request<Body: Encodable, Reply>(
        _ endpoint: Endpoint<Body, Reply>, _ values: [String: String] = [:], body: Body? = nil
    ) throws -> URLRequest {
        try request(endpoint.method.rawValue, HTTPClient.relativePath(endpoint, below: DatacoveWire.Endpoints.mount, values), body: body)
    }

    /// Decodes a JSON answer; dates are ISO 8601 with or without milliseconds.
    static func decode<Reply: Decodable>(_ type: Reply.Type, from data: Data) throws -> Reply {
        do {
            return try HTTPClient.decoder().decode(Reply.self, from: data)
        } catch {
            throw hooks.decoding(Reply.self, error)
        }
    }

    /// Cancellation stays `CancellationError` so callers never mistake it for a failure worth reporting.
    static func map(_ error: any Error) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? AuthError { return error }
        if let error = error as? GatehouseClientError { return AuthError.unexpectedResponse(String(describing: error)) }
        return AuthError.transport(String(describing: error))
    }

    static func apiError(status: Int, data: Data, response: HTTPURLResponse) -> AuthError {
        let answer = HTTPResponse(data: data, response: response)
        let envelope = try? JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: data)
        let message = envelope?.error.message ?? envelope?.error.error ?? "HTTP \(status)"
        let code = envelope?.error.code.map(AuthErrorCode.init(rawValue:))
        return .api(status: status, code: code, message: message, retryAfter: answer.retryAfter)
    }
}
