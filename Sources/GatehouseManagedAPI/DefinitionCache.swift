import Foundation
import GatehouseClientCore
import GatehouseWire

/// Where the last synced definitions live, so `getManagedAPIs` and `fetch` work offline.
public protocol DefinitionCache: Sendable {
    /// The last saved definitions, or nil when none were saved (or the saved copy is unreadable).
    func load() async throws -> CachedDefinitions?
    /// Replaces the saved definitions.
    func save(_ definitions: CachedDefinitions) async throws
}

/// The definitions of the last sync with the `ETag` they came with.
public struct CachedDefinitions: Codable, Equatable, Sendable {
    /// The server's `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The definitions as the server sent them.
    public var definitions: [ManagedAPIWire.Definition]

    /// A cached list.
    public init(etag: String?, definitions: [ManagedAPIWire.Definition]) {
        self.etag = etag
        self.definitions = definitions
    }
}

// Safe: `saved` is only read and written under `lock`.
/// Definitions in memory only: for tests, and for apps that sync at every launch.
public final class MemoryDefinitionCache: DefinitionCache, @unchecked Sendable {
    private let lock = NSLock()
    private var saved: CachedDefinitions?

    /// A cache holding `definitions` to begin with.
    public init(_ definitions: CachedDefinitions? = nil) { saved = definitions }

    /// The saved definitions.
    public func load() async throws -> CachedDefinitions? { lock.withLock { saved } }

    /// Replaces the saved definitions.
    public func save(_ definitions: CachedDefinitions) async throws { lock.withLock { saved = definitions } }
}

/// Definitions in one JSON file, replaced atomically; a damaged file reads as "nothing cached", since the next sync restores it.
public struct FileDefinitionCache: DefinitionCache {
    /// The JSON file.
    public let url: URL

    /// A cache at `url`; the directory is created on first save.
    public init(url: URL) { self.url = url }

    /// The saved definitions, or nil when the file is missing or damaged.
    public func load() async throws -> CachedDefinitions? {
        guard let data = try FileManagedAPITokenStore.storing({ try AtomicFile.read(url) }) else { return nil }
        return try? JSONDecoder().decode(CachedDefinitions.self, from: data)
    }

    /// Writes the definitions through a temporary file renamed over the old one.
    public func save(_ definitions: CachedDefinitions) async throws {
        try FileManagedAPITokenStore.storing { try AtomicFile.write(try JSONEncoder().encode(definitions), to: url) }
    }
}
