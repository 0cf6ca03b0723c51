import Foundation
import GatehouseWire
import Testing
@testable import GatehouseManagedAPI

/// The SDK calls the managed API endpoints where their one declaration puts them: the list,
/// and the proxy with the definition's name as one segment and the app's path below it.
@Suite struct EndpointUseTests {
    static let endpoints = ManagedAPIWire.Endpoints.self

    @Test func theListIsReadWhereItIsDeclared() async throws {
        let transport = ScriptedTransport { _ in .init(status: 200, body: DefinitionsTests.listJSON) }
        _ = try await makeService(transport, cache: MemoryDefinitionCache()).managedAPIs()
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == Self.endpoints.list.method.rawValue)
        #expect(request.url?.path == Self.endpoints.list.path())
    }

    @Test func aProxiedCallGoesWhereTheProxyIsDeclared() async throws {
        let transport = ScriptedTransport { _ in .init(status: 200, body: "{}", headers: ["Content-Type": "application/json"]) }
        _ = try await makeService(transport).fetch(name: "crm", relativeUrl: "/contacts/7", options: ManagedApiFetchOptions(method: "DELETE"))
        let request = try #require(transport.requests.first)
        let endpoint = Self.endpoints.proxy(.DELETE, below: true)
        #expect(request.httpMethod == endpoint.method.rawValue)
        #expect(request.url?.path == endpoint.path(["name": "crm", "path": "contacts/7"]))
    }
}
