import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing

@Suite struct RequestRateLimiterTests {
    let clock = ManualClock()

    @Test func countsInFixedWindowsAndAnswersTheSecondsLeft() {
        let limiter = RequestRateLimiter()
        clock.set(Date(timeIntervalSince1970: 1_767_225_620))  // 20 s into a minute
        #expect(limiter.hit("ip:a", now: clock.now, window: 60) == (1, 40))
        #expect(limiter.hit("ip:a", now: clock.now, window: 60) == (2, 40))
        #expect(limiter.hit("ip:b", now: clock.now, window: 60) == (1, 40))
        clock.advance(by: 39.5)
        #expect(limiter.hit("ip:a", now: clock.now, window: 60) == (3, 1))
        clock.advance(by: 0.5)
        #expect(limiter.hit("ip:a", now: clock.now, window: 60) == (1, 60))
    }

    @Test func concurrentHitsAreEachCountedOnce() async {
        let limiter = RequestRateLimiter()
        let now = clock.now
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { limiter.hit("k", now: now, window: 60).count } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.sorted() == Array(1...1000))
    }

    @Test func endedWindowsAreForgotten() {
        let limiter = RequestRateLimiter(shardCount: 1)
        for index in 0..<1500 { _ = limiter.hit("ip:\(index)", now: clock.now, window: 60) }
        clock.advance(by: 61)
        for index in 0..<1100 { _ = limiter.hit("fresh:\(index)", now: clock.now, window: 60) }
        #expect(limiter.keyCount < 2600)
        #expect(limiter.keyCount >= 1100)
    }

    /// Two nodes on one database: each learns the other's hits at its next settlement, and
    /// the request path itself never writes.
    @Test(arguments: TestDatabaseKind.available)
    func nodesSettleThroughTheDatabase(_ kind: TestDatabaseKind) async throws {
        let store = try await TestDatabase.migrated(kind, CoreMigrations.all, clock: clock)
        defer { store.close() }
        let counting = CountingDatabase(store.database)
        let (nodeA, nodeB) = (RequestRateLimiter(), RequestRateLimiter())
        let settleA = RateLimitSettlement(limiter: nodeA, database: counting)
        let settleB = RateLimitSettlement(limiter: nodeB, database: counting)
        let now = clock.now
        for _ in 0..<3 { _ = nodeA.hit("ip:x", now: now, window: 60) }
        #expect(counting.writes == 0)
        try await settleA.settle()
        #expect(counting.writes == 1)
        #expect(nodeB.hit("ip:x", now: now, window: 60).count == 1)
        _ = nodeB.hit("ip:x", now: now, window: 60)
        try await settleB.settle()
        #expect(nodeB.hit("ip:x", now: now, window: 60).count == 6)  // 3 of A, 2 settled of B, this one
        #expect(nodeA.hit("ip:x", now: now, window: 60).count == 4)  // A has not settled since
        try await settleA.settle()
        #expect(nodeA.hit("ip:x", now: now, window: 60).count == 7)
        // Nothing new to settle: no transaction at all.
        try await settleA.settle()
        try await settleB.settle()
        let writes = counting.writes
        try await settleA.settle()
        #expect(counting.writes == writes)

        // A node that settles an old window late neither resets the shared row nor learns a
        // total for it.
        _ = nodeA.hit("ip:x", now: now, window: 60)
        clock.advance(by: 60)
        #expect(nodeB.hit("ip:x", now: clock.now, window: 60).count == 1)
        try await settleB.settle()
        try await settleA.settle()
        let shared = try await store.database.read { db in
            try db.queryOne("SELECT hits FROM rate_counters WHERE counter_key = ?", "request:ip:x")?.get("hits", as: Int.self)
        }
        #expect(shared == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aStoppedSettlerSettlesOnceMore(_ kind: TestDatabaseKind) async throws {
        let store = try await TestDatabase.migrated(kind, CoreMigrations.all, clock: clock)
        defer { store.close() }
        let limiter = RequestRateLimiter()
        let settlement = RateLimitSettlement(limiter: limiter, database: store.database)
        _ = limiter.hit("token:t", now: clock.now, window: 60)
        let running = Task { await settlement.run(every: 3600) }
        running.cancel()
        await running.value
        let shared = try await store.database.read { db in
            try db.queryOne("SELECT hits FROM rate_counters WHERE counter_key = ?", "request:token:t")?.get("hits", as: Int.self)
        }
        #expect(shared == 1)
    }
}
