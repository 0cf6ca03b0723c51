import Foundation
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The operator API (`/admin/v1`, `/api/tenants/v1`, health): paths from the server's root, Gatehouse's
/// own error envelope, used by gatehouse-cli and the end-to-end tests.
package struct APIClient: Sendable {
    private(set) var http: HTTPClient

    package var baseURL: URL { http.baseURL }

    package init(
        baseURL: URL, transport: any Transport = URLSessionTransport(), headers: [String: String] = [:],
        logger: (@Sendable (String) -> Void)? = nil
    ) {
        http = HTTPClient(baseURL: baseURL, transport: transport, headers: headers, logger: logger)
    }

    /// A copy that sends an extra header on every request (an API key, a bearer token).
    package func with(header name: String, _ value: String) -> APIClient {
        var copy = self
        copy.http.headers[name] = value
        return copy
    }

    /// Sends a request with an optional JSON body and decodes the JSON answer.
    package func send<Reply: Decodable>(
        _ method: String, _ path: String, body: (some Encodable)? = nil as String?, as reply: Reply.Type
    ) async throws -> Reply {
        let data = try await sendRaw(method, path, body: body.map { try http.json($0) })
        return try http.decode(Reply.self, from: data)
    }

    /// Sends `body` to a declared endpoint (`values` fill its path, each one segment; `query` is
    /// appended as given) and reads the answer the endpoint declares (`NoBody`: none).
    @discardableResult
    package func call<Body: Encodable, Reply: Decodable>(
        _ endpoint: Endpoint<Body, Reply>, _ values: [String: String] = [:], query: String? = nil, body: Body
    ) async throws -> Reply {
        let data = try await sendRaw(endpoint, values, query: query, body: try http.json(body))
        return try reply(Reply.self, from: data)
    }

    /// Calls a declared endpoint that takes no body and reads the answer it declares.
    @discardableResult
    package func call<Reply: Decodable>(_ endpoint: Endpoint<NoBody, Reply>, _ values: [String: String] = [:], query: String? = nil) async throws -> Reply {
        try reply(Reply.self, from: try await sendRaw(endpoint, values, query: query))
    }

    private func reply<Reply: Decodable>(_ type: Reply.Type, from data: Data) throws -> Reply {
        if let none = NoBody() as? Reply { return none }
        return try http.decode(Reply.self, from: data)
    }

    /// Sends to a declared endpoint and returns the body of a 2xx answer.
    @discardableResult
    package func sendRaw<Body, Declared>(_ endpoint: Endpoint<Body, Declared>, _ values: [String: String] = [:], query: String? = nil, body: Data? = nil)
        async throws -> Data
    {
        try await sendRaw(endpoint.method.rawValue, Self.path(endpoint, values, query: query), body: body)
    }

    static func path<Body, Declared>(_ endpoint: Endpoint<Body, Declared>, _ values: [String: String], query: String?) -> String {
        endpoint.path(values) + (query.map { "?" + $0 } ?? "")
    }

    /// Sends a request and returns the body of a 2xx answer.
    @discardableResult
    package func sendRaw(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        guard let url = http.url(reference: path) else { throw GatehouseClientError.invalidRequest(path) }
        return try await http.success(HTTPClient.request(method, url, body: body)).data
    }
}
