import Foundation

/// The last entitlement the server gave, and when it arrived (device time).
public struct CachedEntitlement: Sendable, Equatable, Codable {
    public let snapshot: EntitlementSnapshot
    public let receivedAt: Date
    public init(snapshot: EntitlementSnapshot, receivedAt: Date) {
        self.snapshot = snapshot
        self.receivedAt = receivedAt
    }
}

/// Where the manager keeps its last entitlement across launches, so a relaunch offline still
/// knows what the server said (within the offline window).
public protocol EntitlementCacheStore: Sendable {
    func load() -> CachedEntitlement?
    func save(_ entry: CachedEntitlement)
    func clear()
}

/// Keeps the cache as a JSON file (in the app's Application Support or shared container).
public struct FileEntitlementCache: EntitlementCacheStore {
    public let url: URL
    public init(url: URL) { self.url = url }

    public func load() -> CachedEntitlement? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(CachedEntitlement.self, from: data)
    }

    public func save(_ entry: CachedEntitlement) {
        guard let data = try? JSONEncoder().encode(entry) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }

    public func clear() {
        try? FileManager.default.removeItem(at: url)
    }
}
