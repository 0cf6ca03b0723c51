import Foundation
import GatehouseWire
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The definitions: first sync, ETag revalidation, offline use of the last cache.
@Suite struct DefinitionsTests {
    static let listJSON: String = {
        let data = try! JSONEncoder().encode(ManagedAPIWire.DefinitionList(managedApis: [Fixture.spotify, Fixture.open]))
        return String(decoding: data, as: UTF8.self)
    }()

    @Test func nothingCachedSyncsFirstWithTheSessionAndKeepsTheETag() async throws {
        let cache = MemoryDefinitionCache()
        let transport = ScriptedTransport { _ in .init(status: 200, body: Self.listJSON, headers: ["ETag": "\"e1\""]) }
        let service = makeService(transport, cache: cache)
        let apis = try await service.managedAPIs()
        #expect(apis.map { $0["name"] } == ["spotify", "open"])
        #expect(apis[0] == ["name": "spotify", "displayName": "Spotify", "baseUrl": "https://api.spotify.test/v1", "authType": "OAUTH2", "mode": "direct", "category": "music"])
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "http://gatehouse.test/api/managed-apis/v1" && bearer(request) == "s1")
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(try await cache.load()?.etag == "\"e1\"")
        // Cached now: no second request.
        #expect(try await service.managedAPI(name: "open")?["baseUrl"] == "https://open.example.test/v1/")
        #expect(try await service.managedAPI(name: "nope") == nil)
        #expect(transport.requests.count == 1)
    }

    @Test func syncRevalidatesAndA304KeepsTheCache() async throws {
        let cache = MemoryDefinitionCache(Fixture.cached)
        let transport = ScriptedTransport { request in
            request.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"" ? .init(status: 304) : .init(status: 500)
        }
        let service = makeService(transport, cache: cache)
        try await service.sync()
        #expect(transport.requests.count == 1)
        #expect(try await cache.load() == Fixture.cached)
        #expect(try await service.managedAPIs().count == Fixture.all.count)
    }

    @Test func syncReplacesTheCacheWithANewList() async throws {
        let cache = MemoryDefinitionCache(Fixture.cached)
        let transport = ScriptedTransport { _ in .init(status: 200, body: Self.listJSON, headers: ["ETag": "\"v2\""]) }
        let service = makeService(transport, cache: cache)
        try await service.sync()
        #expect(try await service.managedAPIs().count == 2)
        #expect(try await cache.load()?.etag == "\"v2\"")
    }

    @Test func offlineTheLastCacheIsUsedAndSyncFailsWithoutLosingIt() async throws {
        let cache = MemoryDefinitionCache(Fixture.cached)
        let transport = ScriptedTransport { _ in throw URLError(.notConnectedToInternet) }
        let service = makeService(transport, cache: cache)
        #expect(try await service.managedAPIs().count == Fixture.all.count)
        let error = await exception { try await service.sync() }
        #expect(error?.errorCode == ManagedAPIErrorCodes.NETWORK)
        #expect(try await cache.load() == Fixture.cached)
        #expect(try await service.managedAPI(name: "spotify") != nil)
    }

    @Test func offlineWithNothingCachedIsNetwork() async {
        let transport = ScriptedTransport { _ in throw URLError(.notConnectedToInternet) }
        let error = await exception { try await makeService(transport, cache: MemoryDefinitionCache()).managedAPIs() }
        #expect(error?.errorCode == ManagedAPIErrorCodes.NETWORK)
    }

    @Test func aRejectedSessionTokenIsReplacedOnce() async throws {
        let asked = Log()
        let transport = ScriptedTransport { request in
            bearer(request) == "s2" ? .init(status: 200, body: Self.listJSON) : gatehouseError(401, "TOKEN_EXPIRED")
        }
        let service = makeService(transport, cache: MemoryDefinitionCache()) { rejected in
            asked.append(rejected ?? "-")
            return rejected == nil ? "s1" : "s2"
        }
        #expect(try await service.managedAPIs().count == 2)
        #expect(asked.all == ["-", "s1"])
    }

    @Test func aRefusalCarriesTheServersCode() async {
        let transport = ScriptedTransport { _ in gatehouseError(429, "RATE_LIMITED", "Slow down.") }
        let error = await exception { try await makeService(transport, cache: MemoryDefinitionCache()).sync() }
        #expect(error == ManagedAPIException(errorCode: "RATE_LIMITED", message: "Slow down.", statusCode: 429))
    }

    @Test func anUnknownNameIsUnknownAPIAfterOneSync() async {
        let transport = ScriptedTransport { _ in .init(status: 200) }
        let error = await exception { try await makeService(transport).fetch(name: "nope", relativeUrl: "/x") }
        // A name the cache does not know may have been added since: one sync (which fails here), then the answer.
        #expect(error?.errorCode == ManagedAPIErrorCodes.UNKNOWN_API)
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.url?.path.hasSuffix("/managed-apis/v1") == true)
    }

    @Test func theFileCacheRoundTripsAndADamagedFileIsEmpty() async throws {
        let url = try temporaryDirectory().appendingPathComponent("definitions.json")
        let cache = FileDefinitionCache(url: url)
        #expect(try await cache.load() == nil)
        try await cache.save(Fixture.cached)
        #expect(try await FileDefinitionCache(url: url).load() == Fixture.cached)
        try Data("{".utf8).write(to: url)
        #expect(try await cache.load() == nil)
    }
}
