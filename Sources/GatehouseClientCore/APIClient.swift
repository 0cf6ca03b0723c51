import Foundation
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds requests against a Gatehouse base URL, sends them through a `Transport`,
/// decodes answers and error envelopes, and logs one redacted line each way.
public struct APIClient: Sendable {
    public let baseURL: URL
    let transport: any Transport
    let headers: [String: String]
    let logger: (@Sendable (String) -> Void)?

    public init(
        baseURL: URL, transport: any Transport = URLSessionTransport(), headers: [String: String] = [:],
        logger: (@Sendable (String) -> Void)? = nil
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.headers = headers
        self.logger = logger
    }

    /// A copy that sends an extra header on every request (an API key, a bearer token).
    public func with(header name: String, _ value: String) -> APIClient {
        var headers = self.headers
        headers[name] = value
        return APIClient(baseURL: baseURL, transport: transport, headers: headers, logger: logger)
    }

    /// Sends a request with an optional JSON body and decodes the JSON answer.
    public func send<Reply: Decodable>(
        _ method: String, _ path: String, body: (some Encodable)? = nil as String?, as reply: Reply.Type
    ) async throws -> Reply {
        let data = try await sendRaw(method, path, body: body.map { try JSONEncoder().encode($0) })
        do {
            return try JSONDecoder().decode(Reply.self, from: data)
        } catch {
            throw GatehouseClientError.unexpectedResponse("cannot decode \(Reply.self): \(error)")
        }
    }

    /// Sends a request and returns the body of a 2xx answer.
    @discardableResult
    public func sendRaw(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw GatehouseClientError.invalidRequest(path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        logger?(Redactor.redact("→ \(method) \(url.absoluteString)"))
        let (data, response) = try await transport.send(request)
        logger?(Redactor.redact("← \(response.statusCode)"))
        guard (200..<300).contains(response.statusCode) else { throw Self.error(status: response.statusCode, data: data) }
        return data
    }

    static func error(status: Int, data: Data) -> GatehouseClientError {
        if let envelope = try? JSONDecoder().decode(AdminWire.ErrorEnvelope.self, from: data) {
            return .api(
                status: status, code: ErrorCode(rawValue: envelope.error.code), message: envelope.error.message,
                requestId: envelope.error.requestId)
        }
        return .unexpectedResponse("HTTP \(status)")
    }
}
