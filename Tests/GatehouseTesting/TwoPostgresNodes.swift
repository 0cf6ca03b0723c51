import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehousePostgres

/// Two "nodes" over one PostgreSQL schema: separate database handles, caches and
/// invalidations, with node B listening for node A's notices on a channel of this test's own.
public final class TwoPostgresNodes: @unchecked Sendable {
    public let environmentA: Environment
    public let environmentB: Environment
    /// Node B's invalidations: await ``CacheInvalidations/waitForReceived(_:)`` on it.
    public let bInvalidations: CacheInvalidations
    private let databases: [PostgresDatabase]
    /// The fresh database this pair made for itself, closed with it.
    private var ownStore: TestDatabase?
    private let listener: PostgresNotificationListener
    private let connected = AsyncStream<Void>.makeStream()

    public init(store: TestDatabase, clock: ManualClock) throws {
        let channel = "gh_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        databases = [try PostgresDatabase(url: store.url, poolSize: 2), try PostgresDatabase(url: store.url, poolSize: 2)]
        var environmentA = Environment.test(database: databases[0], clock: clock)
        environmentA.invalidations = CacheInvalidations(channel: channel)
        var environmentB = Environment.test(database: databases[1], clock: clock)
        let invalidations = CacheInvalidations(channel: channel)
        environmentB.invalidations = invalidations
        self.environmentA = environmentA
        self.environmentB = environmentB
        bInvalidations = invalidations
        let continuation = connected.continuation
        listener = PostgresNotificationListener(
            url: store.url, channel: channel, received: { invalidations.received($0) }, connected: { continuation.yield() })
        listener.start()
    }

    /// Two nodes on a fresh PostgreSQL database with `migrations` run, node B already
    /// listening; ``close()`` drops the database too.
    public static func onFreshDatabase(migrations: [Migration], clock: ManualClock) async throws -> TwoPostgresNodes {
        let store = try await TestDatabase.migrated(.postgres, migrations, clock: clock)
        do {
            let nodes = try TwoPostgresNodes(store: store, clock: clock)
            nodes.ownStore = store
            await nodes.listening()
            return nodes
        } catch {
            store.close()
            throw error
        }
    }

    /// Waits until node B's listener is connected and listening.
    public func listening() async {
        var iterator = connected.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    public func close() async {
        await listener.stop()
        databases.forEach { $0.close() }
        ownStore?.close()
    }
}
