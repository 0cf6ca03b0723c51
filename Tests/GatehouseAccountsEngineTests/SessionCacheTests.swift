import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseAccountsEngine

/// The node's cache of live sessions: a busy session's access check reads nothing, yet a
/// session ended anywhere stops working at once here, and as soon as the notice arrives on
/// another node.
@Suite struct SessionCacheTests {
    @Test(arguments: TestDatabaseKind.available)
    func aHotSessionCostsNoReadAndAnEndedOneIsRefusedAtOnce(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let counting = CountingDatabase(harness.store.database)
        let service = SessionService(environment: .test(database: counting, clock: harness.clock))
        let device = DeviceInfo(name: "phone", platform: "IOS")
        var pairs: [TokenPair] = []
        for _ in 0..<5 { pairs.append(try await service.signIn(tenantID: harness.tenantID, accountID: harness.accountID, device: device)) }
        // The first check reads the session and the key and records the pair's use.
        let principal = try await service.authenticate(accessToken: pairs[0].accessToken)
        let (reads, writes) = (counting.reads, counting.writes)
        for _ in 0..<3 { #expect(try await service.authenticate(accessToken: pairs[0].accessToken) == principal) }
        #expect(counting.reads == reads && counting.writes == writes)
        // The signature is still checked on every request.
        var parts = pairs[0].accessToken.split(separator: ".").map(String.init)
        parts[2] = (parts[2].hasPrefix("A") ? "B" : "A") + parts[2].dropFirst()
        let forged = parts.joined(separator: ".")
        await #expect(throws: SessionError(.tokenInvalid)) { try await service.authenticate(accessToken: forged) }
        // A refresh token with a wrong MAC changes nothing here: it may come from anyone.
        let generation = service.liveSessions.currentGeneration
        let refresh = pairs[0].refreshToken.split(separator: ".").map(String.init)
        let wrongMAC = "\(refresh[0]).\(refresh[1]).\(refresh[2].hasPrefix("A") ? "B" : "A")\(refresh[2].dropFirst())"
        await #expect(throws: SessionError(.tokenInvalid)) { try await service.refresh(wrongMAC) }
        #expect(service.liveSessions.currentGeneration == generation)

        // Signed out: refused on the very next request.
        try await service.signOut(accountID: harness.accountID, sessionID: principal.sessionId)
        await #expect(throws: SessionError(.sessionNotFound)) { try await service.authenticate(accessToken: pairs[0].accessToken) }
        // Evicted by a sixth device (the fifth slot went free with the sign-out: two more).
        let second = try await service.authenticate(accessToken: pairs[1].accessToken)
        for _ in 0..<2 { _ = try await service.signIn(tenantID: harness.tenantID, accountID: harness.accountID, device: device) }
        await #expect(throws: SessionError(.sessionEvicted)) { try await service.authenticate(accessToken: pairs[1].accessToken) }
        // A reused refresh token ends the session, cached or not.
        _ = try await service.authenticate(accessToken: pairs[2].accessToken)
        let next = try await service.refresh(pairs[2].refreshToken)
        _ = try await service.authenticate(accessToken: next.accessToken)
        // Past the reuse grace, the session freshly cached again.
        harness.clock.advance(by: 31)
        _ = try await service.authenticate(accessToken: next.accessToken)
        await #expect(throws: SessionError(.tokenReused)) { try await service.refresh(pairs[2].refreshToken) }
        await #expect(throws: SessionError(.tokenReused)) { try await service.authenticate(accessToken: next.accessToken) }
        // The account deleted: every session ends.
        let third = try await service.authenticate(accessToken: pairs[3].accessToken)
        try await service.signOutEverywhere(accountID: harness.accountID, reason: .accountDeleted)
        await #expect(throws: SessionError(.accountDeleted)) { try await service.authenticate(accessToken: pairs[3].accessToken) }
        #expect(second.sessionId != third.sessionId)
    }

    /// A rotation sends no notice: a token newer than the cached row sends the check back to
    /// the database, so its use is recorded and the previous refresh token becomes theft.
    @Test(arguments: TestDatabaseKind.available)
    func aTokenNewerThanTheCachedSessionIsCheckedAgainstTheDatabase(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let first = try await harness.signIn()
        _ = try await harness.service.authenticate(accessToken: first.accessToken)
        let second = try await harness.service.refresh(first.refreshToken)
        // The cached row (generation 0) is fresh, but generation 1 is newer.
        _ = try await harness.service.authenticate(accessToken: second.accessToken)
        harness.clock.advance(by: 300)
        let used = try await harness.store.database.read { db in
            try db.queryOne("SELECT current_used, generation FROM account_sessions")!
        }
        #expect(try used.get("generation", as: Int.self) == 1 && used.get("current_used", as: Bool.self))
        await #expect(throws: SessionError(.tokenReused)) { try await harness.service.refresh(first.refreshToken) }
    }

    /// A change behind the cache's back (another process on the same SQLite file, or a notice
    /// lost) is seen once the entry's few seconds are over; a hit does not extend them.
    @Test(arguments: TestDatabaseKind.available)
    func aRevocationNobodyAnnouncedIsSeenWhenTheEntryExpires(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let pair = try await harness.signIn()
        _ = try await harness.service.authenticate(accessToken: pair.accessToken)
        try await harness.store.database.write { db in try db.execute("UPDATE account_sessions SET revoked_reason = 'ended'") }
        harness.clock.advance(by: 3)
        _ = try await harness.service.authenticate(accessToken: pair.accessToken)
        harness.clock.advance(by: 2)
        await #expect(throws: SessionError(.sessionNotFound)) { try await harness.service.authenticate(accessToken: pair.accessToken) }
        // A check that writes (a new app version to record) reads the row back, and refuses it.
        let second = try await harness.signIn()
        _ = try await harness.service.authenticate(accessToken: second.accessToken)
        try await harness.store.database.write { db in try db.execute("UPDATE account_sessions SET revoked_reason = 'evicted'") }
        _ = try await harness.service.authenticate(accessToken: second.accessToken)
        await #expect(throws: SessionError(.sessionEvicted)) {
            try await harness.service.authenticate(accessToken: second.accessToken, appVersion: "2.0")
        }
    }

    /// Two nodes on one PostgreSQL: a session signed out, evicted or ended with its account on
    /// one stops working on the other as soon as the notice arrives.
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func endingsReachTheOtherNode() async throws {
        let harness = try await SessionHarness(.postgres)
        defer { harness.close() }
        let nodes = try TwoPostgresNodes(store: harness.store, clock: harness.clock)
        await nodes.listening()
        let node = (a: SessionService(environment: nodes.environmentA), b: SessionService(environment: nodes.environmentB))
        let device = DeviceInfo(name: "phone", platform: "IOS")
        var pairs: [TokenPair] = []
        for _ in 0..<5 { pairs.append(try await node.a.signIn(tenantID: harness.tenantID, accountID: harness.accountID, device: device)) }
        var principals: [SessionPrincipal] = []
        for pair in pairs { principals.append(try await node.b.authenticate(accessToken: pair.accessToken)) }

        try await node.a.signOut(accountID: harness.accountID, sessionID: principals[0].sessionId)
        await nodes.bInvalidations.waitForReceived(1)
        await #expect(throws: SessionError(.sessionNotFound)) { try await node.b.authenticate(accessToken: pairs[0].accessToken) }

        _ = try await node.a.signIn(tenantID: harness.tenantID, accountID: harness.accountID, device: device)
        _ = try await node.a.signIn(tenantID: harness.tenantID, accountID: harness.accountID, device: device)
        await nodes.bInvalidations.waitForReceived(2)
        await #expect(throws: SessionError(.sessionEvicted)) { try await node.b.authenticate(accessToken: pairs[1].accessToken) }
        _ = try await node.b.authenticate(accessToken: pairs[2].accessToken)

        try await node.a.signOutEverywhere(accountID: harness.accountID, reason: .accountDeleted)
        // One notice per session ended: the three left of the first five and the two new ones.
        await nodes.bInvalidations.waitForReceived(7)
        for pair in pairs[2...] {
            await #expect(throws: SessionError(.accountDeleted)) { try await node.b.authenticate(accessToken: pair.accessToken) }
        }
        await nodes.close()
    }
}
