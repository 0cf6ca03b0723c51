import Foundation
import GatehouseClientCore
import GatehouseTestEvents
import GatehouseWire
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Definitions on the device are checked with the server at the first call and then every
/// `definitionsMaxAge`, cheaply (a 304), and again when the server says a proxied one changed.
@Suite struct DefinitionRefreshTests {
    static func list(_ definitions: [ManagedAPIWire.Definition]) throws -> String {
        String(decoding: try JSONEncoder().encode(ManagedAPIWire.DefinitionList(managedApis: definitions)), as: UTF8.self)
    }

    @Test func theCacheIsCheckedAtTheFirstCallAndThenOnlyWhenItIsOld() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport { request in
            if request.url?.path == "/api/managed-apis/v1" {
                return request.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"" ? .init(status: 304) : .init(status: 500)
            }
            return .init(status: 200, body: "ok")
        }
        let service = makeService(transport, clock: clock, definitionsMaxAge: 300)
        #expect(try await service.fetch(name: "open", relativeUrl: "/a").status == 200)
        #expect(try await service.fetch(name: "open", relativeUrl: "/b").status == 200)
        clock.advance(299)
        #expect(try await service.fetch(name: "open", relativeUrl: "/c").status == 200)
        clock.advance(2)
        #expect(try await service.fetch(name: "open", relativeUrl: "/d").status == 200)
        #expect(transport.requests.map { $0.url!.path } == [
            "/api/managed-apis/v1", "/v1/a", "/v1/b", "/v1/c", "/api/managed-apis/v1", "/v1/d",
        ])
    }

    @Test func offlineTheCacheStandsAndIsNotAskedForAgainAtOnce() async throws {
        let transport = ScriptedTransport { request in
            if request.url?.host == "gatehouse.test" { throw URLError(.cannotConnectToHost) }
            return .init(status: 200, body: "ok")
        }
        let service = makeService(transport, definitionsMaxAge: 300)
        for _ in 0..<3 { #expect(try await service.fetch(name: "open", relativeUrl: "/a").status == 200) }
        #expect(transport.requests.filter { $0.url?.host == "gatehouse.test" }.count == 1)
    }

    @Test func aProxiedAPIMadeDirectOnTheServerIsSyncedAndCalledDirectly() async throws {
        var direct = Fixture.crm
        direct.mode = "direct"
        direct.authType = "NONE"
        let changed = try Self.list([direct])
        let transport = ScriptedTransport { request in
            switch request.url?.host {
            case "gatehouse.test" where request.url?.path == "/api/managed-apis/v1": return .init(status: 200, body: changed, headers: ["ETag": "\"v2\""])
            case "gatehouse.test": return gatehouseError(409, "MANAGED_API_NOT_PROXIED")
            default: return .init(status: 200, body: "direct")
            }
        }
        let answer = try await makeService(transport).fetch(name: "crm", relativeUrl: "/contacts")
        #expect(answer.rawBody == "direct")
        #expect(transport.requests.map { $0.url!.absoluteString } == [
            "http://gatehouse.test/api/managed-apis/v1/crm/proxy/contacts", "http://gatehouse.test/api/managed-apis/v1",
            "https://crm.example.test/contacts",
        ])
    }
}
