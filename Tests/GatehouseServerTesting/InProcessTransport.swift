import Foundation
import GatehouseClientCore
import GatehouseHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `Transport` that hands each request to the server in process (`Server.respond`): the SDK
/// and the tests' own clients drive the router, screening and handlers without a socket.
/// The URL's path and query are the target; its host is only the `Host` header.
public struct InProcessTransport: Transport {
    let server: Server

    public init(server: Server) { self.server = server }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw GatehouseClientError.invalidRequest(request.url?.absoluteString ?? "")
        }
        let target = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name, value) }
        // What an HTTP client adds to every request: the Host, and the length of a body.
        if headers["Host"] == nil { headers.add("Host", (components.host ?? "localhost") + (components.port.map { ":\($0)" } ?? "")) }
        let body = request.httpBody ?? Data()
        if !body.isEmpty, headers["Content-Length"] == nil { headers.add("Content-Length", String(body.count)) }
        let response = await server.respond(method: request.httpMethod ?? "GET", target: target, headers: headers, body: body)
        guard case .bytes(let data) = response.body else { throw InProcessStreamedAnswer(target: target) }
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name] = fields[name].map { $0 + ", " + value } ?? value }
        if fields["Content-Length"] == nil { fields["Content-Length"] = String(data.count) }
        guard let answer = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            throw GatehouseClientError.unexpectedResponse("no HTTP response")
        }
        return (data, answer)
    }
}

/// A streamed answer, which only the socket reads: such a test belongs on the listener.
public struct InProcessStreamedAnswer: Error, CustomStringConvertible {
    public let target: String
    public var description: String { "\(target) answered with a stream; drive it over the listener" }
}
