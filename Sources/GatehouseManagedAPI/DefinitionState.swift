import Foundation

/// The definitions the device knows: read from the cache once, replaced by each sync.
actor DefinitionState {
    private let cache: any DefinitionCache
    private var loaded = false
    private var current: CachedDefinitions?
    private var attemptedAt: Date?

    init(cache: any DefinitionCache) { self.cache = cache }

    /// The cached definitions, or nil when nothing was ever synced; an unreadable cache counts as empty.
    func cached() async -> CachedDefinitions? {
        if !loaded {
            let stored = try? await cache.load()
            // A sync may have replaced the definitions while the file was read: it wins.
            if !loaded {
                current = stored
                loaded = true
            }
        }
        return current
    }

    /// Whether a sync is due (none tried in this process, or the last try is older than `maxAge`);
    /// a yes counts as the try, so concurrent callers do not all sync.
    func claimRefresh(at now: Date, maxAge: TimeInterval) -> Bool {
        if maxAge == .infinity { return false }
        if let attemptedAt, now.timeIntervalSince(attemptedAt) < maxAge { return false }
        attemptedAt = now
        return true
    }

    /// Notes a sync that was just tried.
    func attempted(at now: Date) { attemptedAt = now }

    /// Keeps `fresh` in memory, and in the cache when it can be written (the next sync writes it again otherwise).
    func replace(_ fresh: CachedDefinitions) async {
        current = fresh
        loaded = true
        try? await cache.save(fresh)
    }
}
