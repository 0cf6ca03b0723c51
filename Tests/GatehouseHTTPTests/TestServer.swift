import Foundation
@testable import GatehouseHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts a server on 127.0.0.1:0 for one test and stops it afterwards.
final class TestServer {
    let server: Server
    let log = Recorder()
    let errors = MemoryLogSink()
    var port: UInt16 { server.port }
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(bodyKind: RequestBodyKind = .any, configure: (inout ServerConfiguration) -> Void = { _ in }, routes: (Router) -> Void) throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        let router = Router(bodyKind: bodyKind)
        routes(router)
        let errors = self.errors
        server = Server(
            configuration: configuration, responder: Responder(router: router, errorLog: { errors.write($0.line) }),
            accessLog: AccessLog(sink: log))
        try server.start()
    }

    /// One session for every test, allowing many parallel connections per host.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 200
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    /// Stops the server; tests call it in a `defer`, which also keeps the server alive
    /// until the test's end.
    func stop() { server.shutdown(grace: 1) }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> (Int, [String: String], Data) {
        try await send("GET", path, headers: headers)
    }

    func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws
        -> (Int, [String: String], Data)
    {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields[String(describing: key).lowercased()] = String(describing: value) }
        return (http.statusCode, fields, data)
    }
}
