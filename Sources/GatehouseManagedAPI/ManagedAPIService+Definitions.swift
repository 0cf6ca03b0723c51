import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ManagedAPIService {
    /// Calls `onSuccess` with every Managed API stored on the device (syncing first only when none are).
    public func getManagedAPIs(onSuccess: @escaping ([DataMap]) -> Void, onError: ((any Error) -> Void)? = nil) {
        deliver({ try await self.managedAPIs() }, onSuccess: onSuccess, onError: onError)
    }

    /// Calls `onSuccess` with the Managed API `name`, or nil when it does not exist; no auth setting is included.
    public func getManagedAPI(name: String, onSuccess: @escaping (DataMap?) -> Void, onError: ((any Error) -> Void)? = nil) {
        deliver({ try await self.managedAPI(name: name) }, onSuccess: onSuccess, onError: onError)
    }

    /// Every Managed API stored on the device, as key-value pairs without auth settings.
    public func managedAPIs() async throws -> [DataMap] {
        try await knownDefinitions().map(\.dataMap)
    }

    /// The Managed API `name` as key-value pairs without auth settings, or nil when it does not exist.
    public func managedAPI(name: String) async throws -> DataMap? {
        try await knownDefinitions().first { $0.name == name }?.dataMap
    }

    /// Refreshes the definitions from Gatehouse: a 304 to `If-None-Match` keeps the cache, and a failure
    /// (thrown) leaves the last cache in place for offline use.
    public func sync() async throws {
        _ = try await syncs.run("definitions") { try await self.fetchDefinitions() }
    }

    /// The definitions to use now: the cached ones, or a first sync when nothing is cached.
    /// Once per process and then every `definitionsMaxAge`, the cache is checked with the server
    /// (an `If-None-Match` that is usually a 304); offline, the cache stands.
    func knownDefinitions() async throws -> [ManagedAPIWire.Definition] {
        if let cached = await definitions.cached() {
            guard await definitions.claimRefresh(at: now(), maxAge: definitionsMaxAge) else { return cached.definitions }
            try? await sync()
            return await definitions.cached()?.definitions ?? cached.definitions
        }
        return try await syncs.run("definitions") { try await self.fetchDefinitions() }.definitions
    }

    func definition(named name: String) async throws -> ManagedAPIWire.Definition {
        if let known = try await knownDefinitions().first(where: { $0.name == name }) { return known }
        // Added on the server since the last sync, perhaps: one sync, and offline the cache stands.
        try? await sync()
        guard let definition = try await knownDefinitions().first(where: { $0.name == name }) else {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.UNKNOWN_API, "no Managed API named \(name) on this device")
        }
        return definition
    }

    private func fetchDefinitions() async throws -> CachedDefinitions {
        await definitions.attempted(at: now())
        let current = await definitions.cached()
        let endpoint = ManagedAPIWire.Endpoints.list
        var request = HTTPClient.request(endpoint.method.rawValue, http.url(endpoint, below: ManagedAPIWire.Endpoints.mount))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let etag = current?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        // Every 401 here is Gatehouse's own (nothing is proxied on this path): the interceptor retries it once.
        let (answer, _) = try await session.send(request, through: http)
        if answer.status == 304, let current { return current }
        guard (200..<300).contains(answer.status) else { throw Self.refusal(answer) }
        let list = try http.decode(ManagedAPIWire.DefinitionList.self, from: answer.data)
        let fresh = CachedDefinitions(etag: answer.header("ETag"), definitions: list.managedApis)
        await definitions.replace(fresh)
        return fresh
    }
}
