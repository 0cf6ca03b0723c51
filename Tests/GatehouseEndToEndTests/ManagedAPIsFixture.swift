import Foundation
import GatehouseClientCore
import GatehouseManagedAPI
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A live server with a signed-in user, the real OAuth 2.0 provider and its protected API
/// (Authlib, in a child process), and the operator API for definitions.
struct ManagedAPIsFixture {
    let base: WorkflowsFixture
    let provider: OAuthTestProvider

    static func start(_ kind: TestDatabaseKind, configure: (inout Settings) -> Void = { _ in }) async throws -> ManagedAPIsFixture {
        let provider = try await OAuthTestProvider.start()
        do {
            return ManagedAPIsFixture(base: try await WorkflowsFixture.start(kind, configure: configure), provider: provider)
        } catch {
            _ = try? await offPool { provider.stop() }
            throw error
        }
    }

    func stop() async {
        await base.stop()
        // stop() waits for the process to exit: on a thread of its own, not the cooperative pool's.
        let provider = self.provider
        _ = try? await offPool { provider.stop() }
    }

    var live: LiveServer { base.live }
    var tenant: String { base.tenant }
    var api: URL { live.baseURL.appendingPathComponent("api") }
    var upstream: String { provider.baseURL.absoluteString }

    @discardableResult
    func define(_ definition: AdminWire.ManagedAPIDefinition) async throws -> AdminWire.ManagedAPIDefinition {
        try await base.admin.send(
            "PUT", "/admin/v1/tenants/\(tenant)/managed-apis/\(definition.name!)", body: definition, as: AdminWire.ManagedAPIDefinition.self)
    }

    /// A proxied definition of the provider's API under `path`, reachable because it is a development one.
    @discardableResult
    func proxied(
        _ name: String, path: String, authType: String = "NONE", basic: AdminWire.ManagedAPIDefinition.Basic? = nil, bearerToken: String? = nil,
        apiKey: AdminWire.ManagedAPIDefinition.APIKey? = nil, oauth2: AdminWire.ManagedAPIDefinition.OAuth2? = nil
    ) async throws -> AdminWire.ManagedAPIDefinition {
        try await define(.init(
            name: name, displayName: name.capitalized, baseUrl: upstream + path, authType: authType, mode: "proxied", development: true,
            basic: basic, bearerToken: bearerToken, apiKey: apiKey, oauth2: oauth2))
    }

    /// The provider's API as a direct OAuth 2.0 definition for the public client.
    @discardableResult
    func directOAuth(_ name: String = "provider", scopes: [String] = ["read"]) async throws -> AdminWire.ManagedAPIDefinition {
        try await define(.init(
            name: name, displayName: "Provider", baseUrl: upstream + "/api", authType: "OAUTH2", mode: "direct", development: true,
            metadata: ["category": "music"],
            oauth2: .init(
                grant: "authorization_code", authorizationEndpoint: provider.authorizationEndpoint.absoluteString,
                tokenEndpoint: provider.tokenEndpoint.absoluteString, clientId: OAuthTestProvider.publicClientID, scopes: scopes,
                authorizationParams: ["access_type": "offline"], rotatesRefreshTokens: true)))
    }

    /// The SDK over this server, with a consent presenter that approves in the provider's
    /// consent form (the way a user would in the browser) and counts how often it was shown.
    func service(
        store: any ManagedAPITokenStore = MemoryManagedAPITokenStore(), cache: any DefinitionCache = MemoryDefinitionCache(),
        consents: Counter = Counter(), transport: any Transport = URLSessionTransport(followsRedirects: false)
    ) -> ManagedAPIService {
        let provider = self.provider
        return ManagedAPIService(
            baseURL: api, transport: transport, tokenStore: store, definitionCache: cache,
            consent: ClosureConsentPresenter { url, _ in
                consents.increment()
                return try await provider.approveConsent(authorizationURL: url)
            },
            redirectURI: URL(string: OAuthTestProvider.customSchemeRedirectURI)!
        ) { [auth = base.auth] rejected in try await auth.session.validAccessToken(rejected: rejected) }
    }

    /// A proxied call sent byte for byte, so that no client library tidies its path first.
    func rawProxy(_ target: String, headers: [String] = [], body: String = "") async throws -> (status: Int, headers: [String: String], body: Data) {
        let connection = try await rawSend(target, headers: headers, body: body)
        return try await offPool {
            guard let response = connection.readResponse() else { throw URLError(.badServerResponse) }
            return response
        }
    }

    /// The whole answer as text, head and (chunked or not) body, read until the server closes.
    func rawProxyText(_ target: String) async throws -> String {
        let connection = try await rawSend(target, headers: [], body: "")
        return try await offPool { String(decoding: connection.readToEnd(), as: UTF8.self) }
    }

    private func rawSend(_ target: String, headers: [String], body: String) async throws -> RawConnection {
        let token = try await base.auth.session.validAccessToken()
        let port = live.port
        return try await offPool {
            let connection = try RawConnection(port: port)
            let head = (["GET \(target) HTTP/1.1", "Host: 127.0.0.1", "Authorization: Bearer \(token)", "Connection: close"] + headers)
            connection.send(head.joined(separator: "\r\n") + "\r\n\r\n" + body)
            return connection
        }
    }

    /// Everything the server logged, and every text stored in the managed API tables.
    func everythingKept() async throws -> String {
        let rows = try await live.app.environment.database.read { db in
            try db.query("SELECT * FROM managed_api_definitions", []) + (try db.query("SELECT * FROM managed_api_tokens", []))
        }
        return live.logs.lines.joined(separator: "\n") + rows.map { "\($0)" }.joined(separator: "\n")
    }
}

/// A count shared with a closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
