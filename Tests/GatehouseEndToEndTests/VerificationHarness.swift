import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseVerificationEngine
import GatehouseWire
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A live server with an OTP application created through the admin API, plus helpers to
/// call the DIDWW dialect directly and read codes from the outbox. `inProcess`: the node
/// answers through its router with nothing listening (route suites); the SDK suites and those
/// about the transport keep the socket.
struct VerificationHarness {
    let live: LiveServer
    let app: AdminWire.OTPApplication
    let secret: String

    static func start(
        _ kind: TestDatabaseKind = .sqlite, settings: [String: Any] = [:], clock: (any GatehouseCore.Clock)? = nil, inProcess: Bool = false,
        configure: (inout Settings) -> Void = { _ in }
    ) async throws -> VerificationHarness {
        let live = try await LiveServer.start(kind, clock: clock, inProcess: inProcess, configure: configure)
        var body = settings
        if body["minimumAuth"] == nil { body["minimumAuth"] = "public" }
        let created = try await live.admin.send(
            "POST", "/admin/v1/tenants/\(live.credentials.tenantId)/otp-applications",
            body: RawJSON(try JSONSerialization.data(withJSONObject: body)), as: AdminWire.CreatedOTPApplication.self)
        return VerificationHarness(live: live, app: created.application, secret: created.secret)
    }

    var basic: String { "Basic " + Base64.encode(Array("\(app.appKey):\(secret)".utf8)) }
    var publicAuth: String { "Application \(app.appKey)" }

    /// A request to the verification API; returns status, parsed JSON and headers.
    func call(_ method: String, _ path: String, body: String? = nil, authorization: String?, headers: [String: String] = [:])
        async throws -> (status: Int, json: [String: Any], headers: [String: String])
    {
        var request = URLRequest(url: URL(string: live.credentials.baseURL + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await live.transport.send(request)
        let json = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields { fields[String(describing: key).lowercased()] = String(describing: value) }
        return (response.statusCode, json, fields)
    }

    /// The code of the newest message to a number, once the server's dispatcher has
    /// delivered everything queued.
    func code(for digits: String, length: Int = 6) async throws -> String {
        try await live.app.deliveries.drain()
        let messages = try await live.admin.send("GET", "/admin/v1/outbox?to=\(digits)", as: AdminWire.List<AdminWire.OutboxMessage>.self)
        if let body = messages.data.first?.body {
            let digitsOnly = body.split(whereSeparator: { !$0.isNumber }).map(String.init).filter { $0.count == length }
            if let code = digitsOnly.last { return code }
        }
        throw TestSetupError("no message to \(digits)")
    }

    func patchApplication(_ settings: [String: Any]) async throws {
        try await live.admin.sendRaw(
            "PATCH", "/admin/v1/tenants/\(live.credentials.tenantId)/otp-applications/\(app.id)",
            body: try JSONSerialization.data(withJSONObject: settings))
    }

    func stop() async { await live.stop() }
}

/// Bytes already encoded as JSON, passed through `APIClient.send`.
struct RawJSON: Encodable {
    let data: Data
    init(_ data: Data) { self.data = data }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try JSONDecoder().decode(JSONValue.self, from: data))
    }
}

/// A customer backend for request callbacks: a real HTTP server that checks each
/// callback's signature and answers as scripted.
final class CallbackReceiver: @unchecked Sendable {
    let server: Server
    private let lock = NSLock()
    private var reply: (Int, String) = (200, #"{"action":"allow"}"#)
    private var seen: [(signatureValid: Bool, body: [String: Any])] = []
    var secret = ""
    var appKey = ""

    init() throws {
        let router = Router()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        server = Server(configuration: configuration, responder: Responder(router: router, errorLog: { _ in }))
        router.post("/cb/didww", .inline { [unowned self] request, _ in self.handle(request) })
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.port)/cb/didww" }

    func answer(_ status: Int, _ body: String) { lock.withLock { reply = (status, body) } }
    var received: [(signatureValid: Bool, body: [String: Any])] { lock.withLock { seen } }

    private func handle(_ request: Request) -> Response {
        var valid = false
        if let header = request.headers["Authorization"], let parsed = RequestSigner.parseApplicationHeader(header),
            let signature = parsed.signature, parsed.key == appKey, let timestamp = request.headers["x-timestamp"],
            let key = RequestSigner.key(fromSecret: secret)
        {
            valid = RequestSigner.verify(
                signature: signature, key: key, method: "POST", body: Array(request.body),
                contentType: request.headers["Content-Type"], timestamp: timestamp, path: "/cb/didww", now: Date())
        }
        let body = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
        let (status, text) = lock.withLock { () -> (Int, String) in
            seen.append((valid, body))
            return reply
        }
        return Response(status: valid ? status : 401, headers: ["Content-Type": "application/json"], body: .bytes(Data(text.utf8)))
    }

    func stop() { server.shutdown(grace: 1) }
}
