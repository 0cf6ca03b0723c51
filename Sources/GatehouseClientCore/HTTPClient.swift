import Foundation
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one HTTP client of the SDK: every module configures one with its dialect's headers and error
/// hooks, and sends through it, so URL building, headers, logging and decoding are written once.
package struct HTTPClient: Sendable {
    /// Where relative paths resolve; a base path (`/api`) is kept.
    package let baseURL: URL
    package let transport: any Transport
    /// Set on every request, replacing a value it carries (the SDK's `User-Agent`, `X-App-Version`, a key).
    package var headers: [String: String]
    /// `Accept` for requests that carry none; `nil` sends none.
    package var accept: String?
    /// `URLRequest.timeoutInterval` of every request, when set.
    package var timeout: TimeInterval?
    /// Receives `→ METHOD URL` and `← status`, redacted; bodies and headers are never logged.
    package var logger: (@Sendable (String) -> Void)?
    package var hooks: ErrorHooks

    package init(
        baseURL: URL, transport: any Transport, headers: [String: String] = [:], accept: String? = nil, timeout: TimeInterval? = nil,
        logger: (@Sendable (String) -> Void)? = nil, hooks: ErrorHooks = .plain
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.headers = headers
        self.accept = accept
        self.timeout = timeout
        self.logger = logger
        self.hooks = hooks
    }

    // MARK: - Sending

    /// Sends `request` and returns the answer of any status. A relative URL resolves under `baseURL`;
    /// a JSON body gets `Content-Type: application/json` (URLSession on Linux would label it a form).
    package func response(_ request: URLRequest) async throws -> HTTPResponse {
        let prepared = prepare(request)
        logger?(Redactor.redact("→ \(prepared.httpMethod ?? "GET") \(prepared.url?.absoluteString ?? "")"))
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(prepared)
        } catch {
            throw hooks.transport(error)
        }
        logger?(Redactor.redact("← \(response.statusCode)"))
        return HTTPResponse(data: data, response: response)
    }

    /// Sends `request` and returns a successful answer; any other is thrown through `hooks.status`.
    @discardableResult
    package func success(_ request: URLRequest) async throws -> HTTPResponse {
        let answer = try await response(request)
        guard hooks.isSuccess(answer.status) else { throw hooks.status(answer) }
        return answer
    }

    /// Sends `request` and decodes its successful JSON answer.
    package func send<Reply: Decodable>(_ request: URLRequest, as reply: Reply.Type) async throws -> Reply {
        try decode(Reply.self, from: try await success(request).data)
    }

    /// Decodes JSON; dates are ISO 8601 with or without milliseconds. A failure goes through `hooks.decoding`.
    package func decode<Reply: Decodable>(_ type: Reply.Type, from data: Data) throws -> Reply {
        do {
            return try Self.decoder().decode(Reply.self, from: data)
        } catch {
            throw hooks.decoding(Reply.self, error)
        }
    }

    /// A decoder reading Gatehouse timestamps as `Date`.
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = WireDate.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return decoder
    }

    private func prepare(_ request: URLRequest) -> URLRequest {
        var request = request
        request.url = resolve(request.url)
        if let timeout { request.timeoutInterval = timeout }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if request.httpBody != nil, request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let accept, request.value(forHTTPHeaderField: "Accept") == nil { request.setValue(accept, forHTTPHeaderField: "Accept") }
        return request
    }
}
