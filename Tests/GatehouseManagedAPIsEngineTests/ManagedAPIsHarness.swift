import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseWiring
import GatehouseTesting
@testable import GatehouseManagedAPIsEngine
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A token endpoint the test scripts: counts its calls, can be slowed, answers in order.
final class ScriptedTokenEndpoint: OutboundHTTP, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [(Int, String)] = []
    private(set) var requests: [OutboundRequest] = []
    var delay: UInt64 = 0
    private var issued = 0

    func answer(status: Int, _ body: String) { lock.withLock { answers.append((status, body)) } }

    var count: Int { lock.withLock { requests.count } }

    func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse) {
        let (status, body) = lock.withLock { () -> (Int, String) in
            requests.append(request)
            issued += 1
            return answers.isEmpty ? (200, #"{"access_token":"cc-token-\#(issued)","token_type":"Bearer","expires_in":3600}"#) : answers.removeFirst()
        }
        if delay > 0 { try await Task.sleep(nanoseconds: delay) }
        return (Data(body.utf8), OutboundResponse(statusCode: status, headerFields: [("Content-Type", "application/json")]))
    }
}

/// Lets every destination through but remembers what it was asked, and refuses on request.
final class RecordingGuard: DestinationGuard, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var vetted: [(URL, Bool)] = []
    var refuse = false

    func vet(_ url: URL, allowPrivate: Bool) async throws {
        lock.withLock { vetted.append((url, allowPrivate)) }
        if refuse { throw ManagedAPIError(.destinationRefused, .destination(.notPublic(host: "test"))) }
    }
}

/// A managed APIs engine over a fresh database with one tenant and a manual clock.
final class ManagedAPIsHarness: @unchecked Sendable {
    let store: TestDatabase
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let engine: ManagedAPIsEngine
    let tokens = ScriptedTokenEndpoint()
    let destinations = RecordingGuard()
    let tenantID: String
    let otherTenantID: String
    static let key = [UInt8](repeating: 7, count: 32)

    /// `http` replaces the scripted token endpoint (the real outbound client, say).
    init(_ kind: TestDatabaseKind, secrets: Bool = true, http: (any OutboundHTTP)? = nil) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, EngineMigrations.all, clock: clock)
        let environment = Environment.test(database: store.database, clock: clock, http: http ?? tokens)
        let directory = TenantDirectory(environment: environment)
        tenantID = try await directory.createTenant(name: "Acme").id
        otherTenantID = try await directory.createTenant(name: "Other").id
        engine = ManagedAPIsEngine(environment: environment, secrets: secrets ? try SecretBox(key: Self.key) : nil, destinations: destinations)
    }

    func close() { store.close() }

    @discardableResult
    func save(_ definition: ManagedAPIDefinition, tenant: String? = nil) async throws -> ManagedAPIDefinition {
        try await engine.saveDefinition(tenantID: tenant ?? tenantID, definition)
    }

    /// Every text value of the tenant's two tables, to prove a secret is not among them in clear.
    func storedText() async throws -> String {
        try await store.database.read { db in
            let rows = try db.query("SELECT * FROM managed_api_definitions", []) + (try db.query("SELECT * FROM managed_api_tokens", []))
            return rows.map { "\($0)" }.joined(separator: "\n")
        }
    }

    static func definition(
        _ name: String = "crm", auth: ManagedAPIDefinition.Auth = .none, mode: ManagedAPIDefinition.Mode = .proxied,
        base: String = "https://api.example.com/v2", development: Bool = false
    ) -> ManagedAPIDefinition {
        ManagedAPIDefinition(name: name, displayName: "CRM", baseURL: URL(string: base)!, auth: auth, mode: mode, development: development, metadata: ["tier": "gold"])
    }

    static func clientCredentials(secret: String? = "cc-secret", scopes: [String] = ["read"]) -> ManagedAPIDefinition.Auth {
        .oauth2(.init(
            grant: .clientCredentials, authorizationEndpoint: nil, tokenEndpoint: URL(string: "https://auth.example.com/token")!, clientID: "server-app",
            clientSecret: secret, scopes: scopes))
    }
}
