import Foundation
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Proxied calls through Gatehouse, and direct calls without OAuth.
@Suite struct ProxiedAndPlainTests {
    @Test func aProxiedCallGoesToGatehouseWithTheSessionAndTheCallersRequest() async throws {
        let transport = ScriptedTransport { _ in .init(status: 201, body: #"{"id":7}"#, headers: ["Content-Type": "application/json"]) }
        let options = ManagedApiFetchOptions(method: "POST", headers: ["X-Trace": "t1", "Authorization": "Bearer mine"], body: #"{"a":1}"#)
        let answer = try await makeService(transport).fetch(name: "crm", relativeUrl: "/contacts?limit=5&q=a+b", options: options)
        #expect(answer.status == 201 && (answer.body as? [String: Any])?["id"] as? Int == 7)
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "http://gatehouse.test/api/managed-apis/v1/crm/proxy/contacts?limit=5&q=a+b")
        #expect(request.httpMethod == "POST" && bearer(request) == "s1" && request.value(forHTTPHeaderField: "X-Trace") == "t1")
        #expect(request.httpBody == Data(#"{"a":1}"#.utf8))
    }

    @Test func aGatehouse401GetsAFreshSessionTokenAndOneRetry() async throws {
        let asked = Log()
        let transport = ScriptedTransport { request in
            bearer(request) == "s2" ? .init(status: 200, body: "ok") : gatehouseError(401, "UNAUTHENTICATED")
        }
        let service = makeService(transport) { rejected in
            asked.append(rejected ?? "-")
            return rejected == nil ? "s1" : "s2"
        }
        let answer = try await service.fetch(name: "crm", relativeUrl: "/x")
        #expect(answer.status == 200 && asked.all == ["-", "s1"] && transport.requests.count == 2)
    }

    @Test func aSecondGatehouse401IsAnError() async {
        let transport = ScriptedTransport { _ in gatehouseError(401, "SESSION_NOT_FOUND", "Signed out.") }
        let error = await exception { try await makeService(transport).fetch(name: "crm", relativeUrl: "/x") }
        #expect(error == ManagedAPIException(errorCode: "SESSION_NOT_FOUND", message: "Signed out.", statusCode: 401))
        #expect(transport.requests.count == 2)
    }

    @Test(arguments: [(429, "RATE_LIMITED"), (400, "PATH_REFUSED"), (404, "UNKNOWN_API"), (502, "UPSTREAM_UNREACHABLE"), (504, "UPSTREAM_TIMEOUT")])
    func aGatehouseRefusalIsAnErrorWithTheServersCode(status: Int, code: String) async {
        let transport = ScriptedTransport { _ in gatehouseError(status, code, "Because.") }
        let error = await exception { try await makeService(transport).fetch(name: "crm", relativeUrl: "/x") }
        #expect(error == ManagedAPIException(errorCode: code, message: "Because.", statusCode: status))
        // An API the server no longer knows makes the device sync once (which fails here) before it says so.
        #expect(transport.requests.count == (code == "UNKNOWN_API" ? 2 : 1))
    }

    @Test func anAPIDeletedOnTheServerIsUnknown() async {
        let transport = ScriptedTransport { _ in gatehouseError(404, "MANAGED_API_NOT_FOUND", "No such API.") }
        let error = await exception { try await makeService(transport).fetch(name: "crm", relativeUrl: "/x") }
        #expect(error == ManagedAPIException(errorCode: ManagedAPIErrorCodes.UNKNOWN_API, message: "No such API.", statusCode: 404))
    }

    @Test func aRefusalWithoutACodeIsGatehouseRefused() async {
        let transport = ScriptedTransport { _ in .init(status: 503, body: "", headers: ["X-Gatehouse-Error": ""]) }
        let error = await exception { try await makeService(transport).fetch(name: "crm", relativeUrl: "/x") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.GATEHOUSE_REFUSED && error?.statusCode == 503)
    }

    @Test func anUpstream401Or429IsTheResponse() async throws {
        let transport = ScriptedTransport { _ in .init(status: 401, body: #"{"message":"bad key"}"#, headers: ["Content-Type": "application/json"]) }
        let answer = try await makeService(transport).fetch(name: "crm", relativeUrl: "/x")
        #expect(answer.status == 401 && !answer.ok && transport.requests.count == 1)
        let limited = ScriptedTransport { _ in .init(status: 429, headers: ["Retry-After": "3"]) }
        #expect(try await makeService(limited).fetch(name: "crm", relativeUrl: "/x").header("retry-after") == "3")
    }

    @Test func aPlainAPIGetsTheHeadersExactlyAsGivenAndNothingMore() async throws {
        let transport = ScriptedTransport { _ in .init(status: 200, body: "hi", headers: ["Content-Type": "text/plain"]) }
        let options = ManagedApiFetchOptions(method: "PUT", headers: ["X-One": "1"], body: "raw text")
        let answer = try await makeService(transport).fetch(name: "open", relativeUrl: "/items/3?x=1", options: options)
        #expect(answer.body as? String == "hi")
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://open.example.test/v1/items/3?x=1" && request.httpMethod == "PUT")
        #expect(request.allHTTPHeaderFields == ["X-One": "1"])
        #expect(request.httpBody == Data("raw text".utf8))
    }

    @Test func aBearerAPIUsesTheTokenTheDeviceSet() async throws {
        let transport = ScriptedTransport { _ in .init(status: 200) }
        let store = MemoryManagedAPITokenStore()
        let service = makeService(transport, store: store)
        let missing = await exception { try await service.fetch(name: "tokened", relativeUrl: "/me") }
        #expect(missing?.errorCode == ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION && transport.requests.isEmpty)

        try await service.setBearerToken("pat-1", forAPI: "tokened")
        _ = try await service.fetch(name: "tokened", relativeUrl: "/me")
        #expect(transport.requests.map(bearer) == ["pat-1"])

        try await service.setBearerToken(nil, forAPI: "tokened")
        #expect(store.all.isEmpty)
    }

    @Test func aDirectBasicAPIHasNoSecretOnTheDevice() async {
        let transport = ScriptedTransport { _ in .init(status: 200) }
        let error = await exception { try await makeService(transport).fetch(name: "basic", relativeUrl: "/x") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION && transport.requests.isEmpty)
    }

    @Test func anUnreachableAPIIsNetwork() async {
        let transport = ScriptedTransport { _ in throw URLError(.cannotFindHost) }
        let error = await exception { try await makeService(transport).fetch(name: "open", relativeUrl: "/x") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.NETWORK)
    }
}
