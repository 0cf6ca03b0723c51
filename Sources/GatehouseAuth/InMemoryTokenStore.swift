import Foundation
import GatehouseClientCore

// Safe: `pair` is only read and written under `lock`; `refreshLock` is an AsyncMutex, which guards its own state.
/// A token store in memory, for tests and for apps that want no persistence.
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var pair: TokenPair?
    private let refreshLock = AsyncMutex()

    /// A store holding `pair`.
    public init(_ pair: TokenPair? = nil) { self.pair = pair }

    /// The pair in memory.
    public func read() throws -> TokenPair? { lock.withLock { pair } }

    /// Replaces the pair in memory.
    public func write(_ pair: TokenPair) throws { lock.withLock { self.pair = pair } }

    /// Forgets the pair.
    public func clear() throws { lock.withLock { pair = nil } }

    /// Runs `body` holding an in-process lock (there is no other process to exclude).
    public func withLock<T>(_ body: () async throws -> T) async throws -> T {
        try await refreshLock.withLock(body)
    }
}
