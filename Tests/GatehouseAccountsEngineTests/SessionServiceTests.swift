import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseAccountsEngine

/// A session service over a fresh database with a tenant and one account.
final class SessionHarness: @unchecked Sendable {
    let store: TestDatabase
    let clock = ManualClock()
    let service: SessionService
    let tenantID: String
    let accountID = "11111111-1111-7111-8111-111111111111"

    init(_ kind: TestDatabaseKind, settings: SessionSettings = SessionSettings()) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, CoreMigrations.all + AccountsMigrations.all, clock: clock)
        let environment = Environment.test(database: store.database, clock: clock)
        tenantID = try await TenantDirectory(environment: environment).createTenant(name: "Acme").id
        let (tenant, account) = (tenantID, accountID)
        try await store.database.write { db in
            try db.execute(
                "INSERT INTO accounts (id, tenant_id, phone, status, created_at) VALUES (?, ?, ?, 'CREATED', ?)", account, tenant, "14165550199",
                clock.now)
        }
        service = SessionService(environment: environment, settings: settings)
    }

    func signIn(_ name: String = "iPhone") async throws -> TokenPair {
        try await service.signIn(tenantID: tenantID, accountID: accountID, device: DeviceInfo(name: name, platform: "IOS"))
    }

    func close() { store.close() }
}

@Suite struct SessionServiceTests {
    @Test(arguments: TestDatabaseKind.available)
    func accessTokensCarryTheClaimsAndExpire(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let pair = try await harness.signIn()
        #expect(pair.expiresIn == 1800)
        let principal = try await harness.service.authenticate(accessToken: pair.accessToken)
        #expect(principal.accountId == harness.accountID && principal.tenantId == harness.tenantID && principal.status == "CREATED")
        let claims = try CompactJWS(compact: pair.accessToken).claims()
        #expect(Set(claims.keys) == ["sub", "sid", "tid", "status", "gen", "iat", "exp"])
        harness.clock.advance(by: 1800)
        await #expect(throws: SessionError(.tokenExpired)) { try await harness.service.authenticate(accessToken: pair.accessToken) }
        var forged = pair.accessToken
        forged.removeLast()
        await #expect(throws: SessionError.self) { try await harness.service.authenticate(accessToken: forged + "A") }
    }

    @Test(arguments: TestDatabaseKind.available)
    func onlyTokensWhoseSignatureHeldAreRememberedVerified(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let pair = try await harness.signIn()
        let memo = harness.service.verifiedAccessTokens
        // Forged tokens that parse (a signature of someone else's making) are refused and not kept.
        let parts = pair.accessToken.split(separator: ".")
        for index in 0..<50 {
            // 43 base64url characters: 32 bytes, the last character's unused bits clear.
            let forged = "\(parts[0]).\(parts[1]).\(String(repeating: "B", count: 40))\(index + 10)A"
            await #expect(throws: SessionError(.tokenInvalid)) { try await harness.service.authenticate(accessToken: forged) }
        }
        #expect(memo.count == 0)
        // A token past any length this server signs is refused before it is parsed.
        let long = "\(parts[0]).\(parts[1]).\(String(repeating: "A", count: ParsedAccessToken.maxLength))"
        await #expect(throws: SessionError(.tokenInvalid)) { try await harness.service.authenticate(accessToken: long) }
        #expect(memo.count == 0)
        // A real one is kept once checked, and still checked every time (expiry here).
        _ = try await harness.service.authenticate(accessToken: pair.accessToken)
        #expect(memo.count == 1)
        _ = try await harness.service.authenticate(accessToken: pair.accessToken)
        // A remembered token is taken on its memory only under the secret it was verified
        // with: one remembered under any other (a key replaced under its id) is checked again.
        let forged = "\(parts[0]).\(parts[1]).\(String(repeating: "B", count: 42))A"
        memo.remember(VerifiedAccessToken(parsed: try ParsedAccessToken(forged), keySecret: [UInt8](repeating: 7, count: 32)), for: forged)
        await #expect(throws: SessionError(.tokenInvalid)) { try await harness.service.authenticate(accessToken: forged) }
        harness.clock.advance(by: 1800)
        await #expect(throws: SessionError(.tokenExpired)) { try await harness.service.authenticate(accessToken: pair.accessToken) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func refreshRotatesAndRacingRefreshesShareTheSuccessor(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let first = try await harness.signIn()
        harness.clock.advance(by: 100)
        let second = try await harness.service.refresh(first.refreshToken)
        #expect(second.refreshToken != first.refreshToken)
        harness.clock.advance(by: 29)
        // The same token again inside the grace period: the very same pair.
        #expect(try await harness.service.refresh(first.refreshToken) == second)
        let third = try await harness.service.refresh(second.refreshToken)
        #expect(third != second)
        // Two generations old: theft. The whole session ends, the newest token too.
        await #expect(throws: SessionError(.tokenReused)) { try await harness.service.refresh(first.refreshToken) }
        await #expect(throws: SessionError(.tokenReused)) { try await harness.service.refresh(third.refreshToken) }
        await #expect(throws: SessionError(.tokenReused)) { try await harness.service.authenticate(accessToken: third.accessToken) }
    }

    /// Only a rotation takes the session's lock: the previous token's answer (the current pair
    /// again) is read without it, so refreshes racing on one token never queue behind a
    /// transaction that holds the row. PostgreSQL only: on SQLite every write waits for the
    /// one writer anyway.
    @Test func aRefreshOnThePreviousTokenDoesNotWaitForTheSessionsLock() async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let harness = try await SessionHarness(.postgres)
        defer { harness.close() }
        let first = try await harness.signIn()
        let second = try await harness.service.refresh(first.refreshToken)
        let sessionID = try #require(SessionTokens.parseRefresh(second.refreshToken)).sessionID
        let (locked, release, answered) = (Latch(), DispatchSemaphore(value: 0), Latch())
        // Another transaction holds the row, as a rotation in flight does.
        let holder = Task {
            try await harness.store.database.write { db in
                _ = try db.query("SELECT id FROM account_sessions WHERE id = ? FOR UPDATE", sessionID)
                locked.signal()
                release.wait()
            }
        }
        #expect(await locked.wait())
        let reissue = Task {
            defer { answered.signal() }
            return try await harness.service.refresh(first.refreshToken)
        }
        #expect(await answered.wait(timeout: .seconds(20)), "the previous token's refresh waited for the lock")
        release.signal()
        try await holder.value
        #expect(try await reissue.value == second)
        // The current token does rotate, and so waits its turn: after the holder, it goes through.
        let third = try await harness.service.refresh(second.refreshToken)
        #expect(third != second)
    }

    /// Tokens of the right shape with hostile parts: the generation now goes into the locking
    /// read, so the largest one that parses reaches the database, and every one is refused as
    /// a token, never as a database error, with the session left as it was.
    @Test(arguments: TestDatabaseKind.available)
    func hostileRefreshTokensAreRefusedAndChangeNothing(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let first = try await harness.signIn()
        let parts = first.refreshToken.split(separator: ".").map(String.init)
        let (session, mac) = (parts[0], parts[2])
        let refused: [(String, SessionError)] = [
            ("\(session).\(Int.max).\(mac)", SessionError(.tokenInvalid)),
            ("\(session).99999999999999999999.\(mac)", SessionError(.tokenInvalid)),
            ("\(session).-1.\(mac)", SessionError(.tokenInvalid)),
            ("\(session).1\u{0}.\(mac)", SessionError(.tokenInvalid)),
            ("\(session).\(parts[1]).\(mac)\u{0}", SessionError(.tokenInvalid)),
            ("\(UUID().uuidString.lowercased()).\(parts[1]).\(mac)", SessionError(.sessionNotFound)),
        ]
        for (token, error) in refused {
            await #expect(throws: error, "\(token.debugDescription)") { try await harness.service.refresh(token) }
        }
        // Untouched: the real token still rotates.
        #expect(try await harness.service.refresh(first.refreshToken) != first)
    }

    @Test(arguments: TestDatabaseKind.available)
    func lostResponseIsForgivenUntilTheSuccessorIsUsed(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let first = try await harness.signIn()
        let lost = try await harness.service.refresh(first.refreshToken)
        harness.clock.advance(by: 300)
        // The app never received `lost`: retrying with the old token still works.
        #expect(try await harness.service.refresh(first.refreshToken) == lost)
        // Once the successor's access token was used, the old refresh token is theft.
        _ = try await harness.service.authenticate(accessToken: lost.accessToken)
        harness.clock.advance(by: 60)
        await #expect(throws: SessionError(.tokenReused)) { try await harness.service.refresh(first.refreshToken) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentRefreshesRotateOnce(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let first = try await harness.signIn()
        let pairs = try await withThrowingTaskGroup(of: TokenPair.self) { group in
            for _ in 0..<12 { group.addTask { try await harness.service.refresh(first.refreshToken) } }
            return try await group.reduce(into: [TokenPair]()) { $0.append($1) }
        }
        #expect(Set(pairs.map(\.refreshToken)).count == 1)
        #expect(Set(pairs.map(\.accessToken)).count == 1)
        let generation = try await harness.store.database.read { db in
            try db.queryOne("SELECT generation FROM account_sessions", [])!.get("generation", as: Int.self)
        }
        #expect(generation == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func theSixthSignInEvictsTheFirst(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        var pairs: [TokenPair] = []
        for index in 0..<6 {
            pairs.append(try await harness.signIn("device \(index)"))
            harness.clock.advance(by: 1)
        }
        await #expect(throws: SessionError(.sessionEvicted)) { try await harness.service.refresh(pairs[0].refreshToken) }
        await #expect(throws: SessionError(.sessionEvicted)) { try await harness.service.authenticate(accessToken: pairs[0].accessToken) }
        let names = try await harness.service.sessions(accountID: harness.accountID).map(\.deviceName)
        #expect(names == (1..<6).reversed().map { "device \($0)" })
        _ = try await harness.service.refresh(pairs[1].refreshToken)
    }

    /// A sign-in's statements travel with its COMMIT: an account gone by then gets no session,
    /// and the sign-in says so after the commit.
    @Test(arguments: TestDatabaseKind.available)
    func aDeletedAccountGetsNoSession(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        _ = try await harness.signIn()
        let (account, now) = (harness.accountID, harness.clock.now)
        try await harness.store.database.write { db in try db.execute("UPDATE accounts SET deleted_at = ? WHERE id = ?", now, account) }
        await #expect(throws: SessionError(.sessionNotFound)) { try await harness.signIn() }
        let sessions = try await harness.store.database.read { db in try db.query("SELECT id FROM account_sessions") }
        #expect(sessions.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func signingOutAndExpiry(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let phone = try await harness.signIn("phone")
        let tablet = try await harness.signIn("tablet")
        let tabletID = try await harness.service.authenticate(accessToken: tablet.accessToken).sessionId
        try await harness.service.signOut(accountID: harness.accountID, sessionID: tabletID)
        await #expect(throws: SessionError(.sessionNotFound)) { try await harness.service.authenticate(accessToken: tablet.accessToken) }
        await #expect(throws: SessionError(.sessionNotFound)) { try await harness.service.signOut(accountID: "other", sessionID: tabletID) }
        // Seven days without a refresh: expired.
        harness.clock.advance(by: 7 * 86_400)
        await #expect(throws: SessionError(.tokenExpired)) { try await harness.service.refresh(phone.refreshToken) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func absoluteLifetimeEndsEvenAnActiveSession(_ kind: TestDatabaseKind) async throws {
        var settings = SessionSettings()
        settings.absoluteLifetime = 10 * 86_400
        let harness = try await SessionHarness(kind, settings: settings)
        defer { harness.close() }
        var pair = try await harness.signIn()
        for _ in 0..<3 {
            harness.clock.advance(by: 3 * 86_400)
            pair = try await harness.service.refresh(pair.refreshToken)
        }
        harness.clock.advance(by: 1 * 86_400)
        await #expect(throws: SessionError(.tokenExpired)) { try await harness.service.refresh(pair.refreshToken) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func keyRotationKeepsIssuedTokensValidUntilExpiry(_ kind: TestDatabaseKind) async throws {
        let harness = try await SessionHarness(kind)
        defer { harness.close() }
        let before = try await harness.signIn()
        try await harness.service.rotateSigningKey(tenantID: harness.tenantID)
        let after = try await harness.signIn()
        #expect(try CompactJWS(compact: before.accessToken).header.kid != CompactJWS(compact: after.accessToken).header.kid)
        _ = try await harness.service.authenticate(accessToken: before.accessToken)
        _ = try await harness.service.authenticate(accessToken: after.accessToken)
    }
}
