import Foundation

/// The last entitlement the server gave, and when it arrived (device time).
public struct CachedEntitlement: Sendable, Equatable, Codable {
    /// What the server answered.
    public let snapshot: EntitlementSnapshot
    /// When the answer arrived, by the device clock.
    public let receivedAt: Date
    /// A cache entry.
    public init(snapshot: EntitlementSnapshot, receivedAt: Date) {
        self.snapshot = snapshot
        self.receivedAt = receivedAt
    }
}

/// Where the manager keeps its last entitlement across launches, so a relaunch offline still
/// knows what the server said (within the offline window).
public protocol EntitlementCacheStore: Sendable {
    /// The saved entry, if any.
    func load() -> CachedEntitlement?
    /// Replaces the saved entry.
    func save(_ entry: CachedEntitlement)
    /// Forgets the saved entry.
    func clear()
}

/// Keeps the cache as a JSON file (in the app's Application Support or shared container).
public struct FileEntitlementCache: EntitlementCacheStore {
    /// The JSON file.
    public let url: URL
    /// A cache kept in the file at `url`.
    public init(url: URL) { self.url = url }

    /// The entry in the file; `nil` when it is missing or unreadable.
    public func load() -> CachedEntitlement? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(CachedEntitlement.self, from: data)
    }

    /// Writes the entry atomically, creating the directory; a failure only loses the cache.
    public func save(_ entry: CachedEntitlement) {
        guard let data = try? JSONEncoder().encode(entry) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }

    /// Deletes the file.
    public func clear() {
        try? FileManager.default.removeItem(at: url)
    }
}
