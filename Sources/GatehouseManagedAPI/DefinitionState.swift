import Foundation
import GatehouseWire

/// The definitions the device knows: read from the cache once, replaced by each sync.
actor DefinitionState {
    private let cache: any DefinitionCache
    private var loaded = false
    private var current: CachedDefinitions?

    init(cache: any DefinitionCache) { self.cache = cache }

    /// The cached definitions, or nil when nothing was ever synced; an unreadable cache counts as empty.
    func cached() async -> CachedDefinitions? {
        if !loaded {
            current = try? await cache.load()
            loaded = true
        }
        return current
    }

    /// Keeps `fresh` in memory, and in the cache when it can be written (the next sync writes it again otherwise).
    func replace(_ fresh: CachedDefinitions) async {
        current = fresh
        loaded = true
        try? await cache.save(fresh)
    }
}
