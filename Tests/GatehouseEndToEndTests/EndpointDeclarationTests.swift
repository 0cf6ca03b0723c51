import Foundation
import GatehouseHTTP
@testable import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// Each dialect that declares its endpoints: the server registers exactly the declared
/// routes under its prefix, and its OpenAPI document has exactly the declared operations
/// (method, path, id, summary). The SDK's side is `EndpointUseTests` in its module's tests.
@Suite struct EndpointDeclarationTests {
    /// The declared endpoints of the paths under `prefixes`, and the document that has them.
    struct Dialect: Sendable {
        let prefixes: [String]
        let endpoints: [EndpointDescription]
        let document: Document

        func covers(_ path: String) -> Bool { prefixes.contains { path == $0 || path.hasPrefix($0 + "/") } }
    }

    static let dialects = [
        Dialect(prefixes: [ManagedAPIWire.Endpoints.prefix], endpoints: ManagedAPIWire.Endpoints.all, document: ManagedAPIsDocument.document),
        Dialect(prefixes: ["/api/auth", "/api/users", "/api/purchases"], endpoints: DatacoveWire.Endpoints.all, document: DatacoveDocument.document),
        Dialect(prefixes: [DIDWWWire.Endpoints.prefix], endpoints: DIDWWWire.Endpoints.all, document: VerificationDocument.document),
        Dialect(prefixes: ["/token", "/v3"], endpoints: ProveWire.Endpoints.all, document: PossessionDocument.document),
        Dialect(prefixes: [PossessionWire.basePath], endpoints: PossessionWire.Endpoints.all, document: PossessionDocument.document),
        Dialect(prefixes: ["/api/tenants"], endpoints: DatacoveWire.Endpoints.Store.all, document: DatacoveDocument.document),
        Dialect(prefixes: [SubscriptionFlowWire.Endpoints.prefix], endpoints: SubscriptionFlowWire.Endpoints.all, document: SubscriptionFlowDocument.document),
        Dialect(prefixes: [AdminWire.Endpoints.prefix], endpoints: AdminWire.Endpoints.all, document: AdminDocument.document),
        Dialect(prefixes: ["/api/workflows"], endpoints: DatacoveWire.Endpoints.Workflows.all, document: DatacoveDocument.document),
    ]

    @Test func everyRouteAndOperationOfADeclaredDialectIsItsDeclaration() async throws {
        let live = try await LiveServer.start()
        let routes = live.app.router.routes
        await live.stop()
        for dialect in Self.dialects {
            let declared = dialect.endpoints.map { "\($0.method.rawValue) \($0.template)" }
            #expect(Set(declared).count == declared.count, "\(dialect.prefixes): an endpoint declared twice")
            #expect(dialect.endpoints.allSatisfy { dialect.covers($0.template) }, "\(dialect.prefixes): an endpoint outside the prefixes")
            let registered = routes.filter { dialect.covers($0.template) }.map { "\($0.method.rawValue) \($0.template)" }
            #expect(registered.sorted() == declared.sorted(), "\(dialect.prefixes)")
            let operations = dialect.document.operations.filter { dialect.covers($0.path) }.map { "\($0.method.rawValue) \($0.path) \($0.id) \($0.summary)" }
            #expect(operations.sorted() == dialect.endpoints.map { "\($0.method.rawValue) \($0.template) \($0.id) \($0.summary)" }.sorted())
        }
    }

    /// No route of a node (development mode, every provider's receipts on) is registered
    /// without a declaration.
    @Test func everyRouteIsADeclaredEndpoint() async throws {
        let live = try await LiveServer.start { settings in
            settings.deliveryProviders = "twilio, vonage"
            settings.twilioAccountSid = ProviderAPIs.twilioAccountSid
            settings.twilioAuthToken = ProviderAPIs.twilioAuthToken
            settings.twilioFrom = "+15005550006"
            settings.vonageApiKey = ProviderAPIs.vonageAPIKey
            settings.vonageApiSecret = ProviderAPIs.vonageAPISecret
            settings.vonageFrom = "Gatehouse"
            settings.vonageSignatureSecret = "vonage-signature-secret"
        }
        let routes = live.app.router.routes.map { "\($0.method.rawValue) \($0.template)" }
        await live.stop()
        let declared = Set((Self.dialects.flatMap(\.endpoints) + OperatorEndpoints.all).map { "\($0.method.rawValue) \($0.template)" })
        #expect(routes.filter { !declared.contains($0) }.sorted() == [])
    }

    @Test func aPathParameterStaysOneSegment() {
        let endpoint = ManagedAPIWire.Endpoints.definition
        #expect(endpoint.path(["name": "a/b c"]) == "/api/managed-apis/v1/a%2Fb%20c")
        #expect(endpoint.path(below: ManagedAPIWire.Endpoints.mount, ["name": "crm"]) == "/managed-apis/v1/crm")
        #expect(ManagedAPIWire.Endpoints.proxy(.GET, below: true).parameters == ["name", "path"])
    }
}
