import Foundation
import GatehouseAuth
import GatehouseClientCore
import GatehouseCrypto
import GatehouseHTTP
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import GatehouseWorkflows
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A live server with a signed-in user driving it through `GatehouseWorkflows`, and the
/// operator API for definitions, executor settings and credits.
struct WorkflowsFixture {
    let live: LiveServer
    let auth: AuthClient
    let client: WorkflowsClient
    let accountID: String
    let admin: APIClient
    let phone: String

    static func start(_ kind: TestDatabaseKind, phone: String = "+14165550170", configure: (inout Settings) -> Void = { _ in }) async throws -> WorkflowsFixture {
        let live = try await LiveServer.start(kind) { settings in
            settings.workflowStreamHeartbeat = 0.5
            configure(&settings)
        }
        return try await signIn(live, phone: phone)
    }

    static func signIn(_ live: LiveServer, phone: String) async throws -> WorkflowsFixture {
        let outbox = DatacoveClient(live)
        let auth = AuthClient(
            baseURL: live.baseURL.appendingPathComponent("api"), apiKey: live.credentials.apiKeys!["IOS"]!, tokenStore: InMemoryTokenStore(),
            appVersion: "3.1.0", deviceName: "iPhone")
        let digits = phone.filter(\.isNumber)
        try await auth.requestMobileOtp(phone: phone)
        _ = try await auth.verifyMobileOtp(phone: phone, otp: try await outbox.outboxCode(live, digits))
        var waiting = WorkflowsClient.WaitSettings()
        waiting.pollInterval = 0.5
        waiting.maxPollInterval = 1
        let client = WorkflowsClient(baseURL: live.baseURL.appendingPathComponent("api"), appVersion: "3.1.0", waiting: waiting) { rejected in
            try await auth.session.validAccessToken(rejected: rejected)
        }
        let accountID = try await live.app.environment.database.read { db in
            try db.queryOne("SELECT id FROM accounts WHERE phone = ?", digits)!.get("id", as: String.self)
        }
        let admin = APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
        return WorkflowsFixture(live: live, auth: auth, client: client, accountID: accountID, admin: admin, phone: phone)
    }

    func stop() async { await live.stop() }

    var tenant: String { live.credentials.tenantId }

    @discardableResult
    func grant(_ credits: Int, to account: String? = nil) async throws -> Int {
        try await admin.send(
            "POST", "/admin/v1/tenants/\(tenant)/accounts/\(account ?? accountID)/credits", body: AdminWire.CreditGrant(credits: credits),
            as: AdminWire.WalletBalance.self
        ).wallet
    }

    func wallet() async throws -> Int {
        try await live.app.commerce.wallet(tenantID: tenant, accountID: accountID)["WALLET"] ?? 0
    }

    @discardableResult
    func define(_ definition: AdminWire.WorkflowDefinition) async throws -> AdminWire.WorkflowDefinition {
        try await admin.send("PUT", "/admin/v1/tenants/\(tenant)/workflows/\(definition.id!)", body: definition, as: AdminWire.WorkflowDefinition.self)
    }

    func settings(_ patch: AdminWire.WorkflowSettingsPatch) async throws -> AdminWire.WorkflowSettings {
        try await admin.send("PATCH", "/admin/v1/tenants/\(tenant)/workflow-settings", body: patch, as: AdminWire.WorkflowSettings.self)
    }

    /// A raw Datacove call with the user's token, for what the SDK would never send.
    func raw(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> (status: Int, data: Data) {
        var request = URLRequest(url: URL(string: live.credentials.baseURL + "/api/" + path)!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        request.setValue("Bearer \(try await auth.session.validAccessToken())", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSessionTransport().send(request)
        return (response.statusCode, data)
    }

    /// A temporary file with `bytes`.
    static func file(_ name: String, _ bytes: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wf-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }
}

/// A real HTTP server playing a tenant's worker or a model endpoint: each request is recorded
/// and answered by the test's closure (which may wait, like a worker still busy).
final class StandInServer: @unchecked Sendable {
    let server: Server
    private let lock = NSLock()
    private var received: [Request] = []
    let arrived = Latch()

    convenience init(answer: @escaping @Sendable (Request, Int) -> Response) throws {
        try self.init(waiting: { request, count in answer(request, count) })
    }

    init(waiting answer: @escaping @Sendable (Request, Int) async -> Response) throws {
        let router = Router()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = 2
        configuration.shutdownGrace = 0.5
        server = Server(configuration: configuration, responder: Responder(router: router, errorLog: { _ in }))
        let handler: Handler = .async { [unowned self] request, _ in
            let count = self.lock.withLock { () -> Int in
                self.received.append(request)
                return self.received.count
            }
            self.arrived.signal()
            return await answer(request, count)
        }
        router.on(.POST, "/*", handler)
        try server.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(server.port)")! }
    var requests: [Request] { lock.withLock { received } }
    func stop() async { await server.stop(grace: 0.5) }
}
