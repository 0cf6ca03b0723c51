import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Resolves relative requests against the base URL, adds the common headers, sends them through the
/// `Transport` and turns every failure into `AuthError` or `CancellationError`.
struct AuthHTTP: Sendable {
    let baseURL: URL
    let transport: any Transport
    let appVersion: String?
    let logger: (@Sendable (String) -> Void)?

    /// A relative request with an optional JSON body, for `send`.
    static func request(_ method: String, _ path: String, body: (some Encodable)? = nil as String?) throws -> URLRequest {
        guard let url = URL(string: path) else { throw AuthError.invalidRequest(path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            do {
                request.httpBody = try JSONEncoder().encode(body)
            } catch {
                throw AuthError.invalidRequest("cannot encode \(type(of: body)): \(error)")
            }
        }
        return request
    }

    /// Sends `request` (relative to the base URL, or absolute) and returns a 2xx answer; throws `AuthError.api` otherwise,
    /// unless `anyStatus` asks for every HTTP answer as it came.
    func send(_ request: URLRequest, bearer: String? = nil, anyStatus: Bool = false) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.url = resolve(request.url)
        if let appVersion { request.setValue(appVersion, forHTTPHeaderField: "X-App-Version") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if request.httpBody != nil, request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if request.value(forHTTPHeaderField: "Accept") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Accept")
        }
        // Method and URL only: headers and bodies carry keys, tokens and codes.
        logger?(Redactor.redact("→ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"))
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw Self.map(error)
        }
        logger?("← \(response.statusCode)")
        guard anyStatus || (200..<300).contains(response.statusCode) else {
            throw Self.apiError(status: response.statusCode, data: data, response: response)
        }
        return (data, response)
    }

    /// Sends `request` and decodes its JSON answer.
    func send<Reply: Decodable>(_ request: URLRequest, bearer: String? = nil, as reply: Reply.Type) async throws -> Reply {
        let (data, _) = try await send(request, bearer: bearer)
        return try Self.decode(Reply.self, from: data)
    }

    /// Decodes a JSON answer; dates are ISO 8601 with or without milliseconds.
    static func decode<Reply: Decodable>(_ type: Reply.Type, from data: Data) throws -> Reply {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = WireDate.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        do {
            return try decoder.decode(Reply.self, from: data)
        } catch {
            throw AuthError.unexpectedResponse("cannot decode \(Reply.self): \(error)")
        }
    }

    /// Contract paths are relative to the `/api` base, so a leading `/` is dropped rather than escaping it.
    private func resolve(_ url: URL?) -> URL? {
        guard let url, url.scheme == nil else { return url }
        var base = baseURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        var relative = url.relativeString
        while relative.hasPrefix("/") { relative.removeFirst() }
        return URL(string: base + relative) ?? url
    }

    /// Cancellation stays `CancellationError` so callers never mistake it for a failure worth reporting.
    static func map(_ error: any Error) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? AuthError { return error }
        if let error = error as? GatehouseClientError { return AuthError.unexpectedResponse(String(describing: error)) }
        return AuthError.transport(String(describing: error))
    }

    static func apiError(status: Int, data: Data, response: HTTPURLResponse) -> AuthError {
        let retryAfter = response.value(forHTTPHeaderField: "Retry-After")
            .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
        let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: data)
        let message = envelope?.error.message ?? envelope?.error.error ?? "HTTP \(status)"
        let code = envelope?.error.code.map(AuthErrorCode.init(rawValue:))
        return .api(status: status, code: code, message: message, retryAfter: retryAfter)
    }
}
