import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseWiring
import GatehouseTesting
import GatehouseVerificationEngine
import Testing
@testable import GatehouseAccountsEngine

/// Sign-in codes over the verification engine, wired as the server wires it, with a recording
/// delivery and a manual clock.
final class SignInHarness: @unchecked Sendable {
    let store: TestDatabase
    let clock = ManualClock()
    let accounts: AccountsEngine
    let dispatcher: DeliveryDispatcher
    let delivery = KeptMessages()
    let tenantID: String
    let phone = "+14165550199"

    init(_ kind: TestDatabaseKind, policy: OneTimeCodePolicy, failuresPerHour: Int = 10) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, CoreMigrations.all + VerificationMigrations.all + AccountsMigrations.all, clock: clock)
        let environment = Environment.test(database: store.database, clock: clock)
        tenantID = try await TenantDirectory(environment: environment).createTenant(name: "Acme").id
        let verification = VerificationEngine(environment: environment, delivery: delivery)
        dispatcher = DeliveryDispatcher(engine: verification)
        accounts = AccountsEngine(
            environment: environment, codes: verification, sessions: SessionService(environment: environment), policy: policy,
            failuresPerHour: failuresPerHour)
    }

    /// Asks for a code and runs the dispatcher until it was handed to delivery; returns it.
    func requestCode() async throws -> String {
        let before = delivery.messages.count
        try await accounts.requestCode(tenantID: tenantID, channel: .phone, identifier: phone, name: nil)
        try await dispatcher.drain()
        guard delivery.messages.count > before, let message = delivery.messages.last else {
            throw TestSetupError("the sign-in code was not dispatched")
        }
        return String(message.body.filter(\.isNumber).suffix(6))
    }

    func verify(_ code: String) async throws {
        _ = try await accounts.verifyCode(
            tenantID: tenantID, channel: .phone, identifier: phone, code: code, device: DeviceInfo(name: "iPhone", platform: "IOS"))
    }

    func close() { store.close() }
}

final class KeptMessages: MessageDelivery, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [OutboundMessage] = []
    func deliver(_ message: OutboundMessage) async throws { lock.withLock { stored.append(message) } }
    var messages: [OutboundMessage] { lock.withLock { stored } }
}

@Suite struct SignInLockTests {
    /// Ten wrong codes per code, so that only the hourly cap can stop a burst on a fresh code.
    static var policy: OneTimeCodePolicy {
        var policy = OneTimeCodePolicy()
        policy.attempts = 10
        return policy
    }

    /// The hourly cap is decided where the code is checked: after five wrong codes, fifty
    /// more at once on a new code are fifty transactions, and only five get to check theirs.
    @Test(arguments: TestDatabaseKind.available)
    func concurrentWrongCodesCannotPassTheHourlyCap(_ kind: TestDatabaseKind) async throws {
        let harness = try await SignInHarness(kind, policy: Self.policy)
        defer { harness.close() }
        let first = try await harness.requestCode()
        for _ in 0..<5 {
            await #expect(throws: AccountsError(.codeInvalid)) { try await harness.verify(Self.wrong(first)) }
        }
        harness.clock.advance(by: 61)
        let code = try await harness.requestCode()
        let outcomes = await Self.burst(50, of: Self.wrong(code), harness)
        #expect(outcomes["\(AccountsError.Code.codeInvalid)"] == 5)
        #expect(outcomes["\(AccountsError.Code.tooManyWrongCodes)"] == 45)
        #expect(outcomes.values.reduce(0, +) == 50)
        // The new code saw exactly five attempts: the other forty-five were never compared.
        let attempts: [Int] = try await harness.store.database.read { db in
            try db.query("SELECT attempts FROM verifications ORDER BY created_at").map { try $0.get("attempts") }
        }
        #expect(attempts == [5, 5])
        // Once locked, even the right code is refused.
        do {
            try await harness.verify(code)
            Issue.record("the right code was accepted while locked")
        } catch let error as AccountsError {
            #expect(error.code == .tooManyWrongCodes && (error.retryAfter ?? 0) > 0)
        }
        // The next hour lifts the lock; a new code works.
        harness.clock.advance(by: 3600)
        try await harness.verify(try await harness.requestCode())
    }

    /// The report of the issue: nine wrong codes, then five at once on a new code.
    @Test(arguments: TestDatabaseKind.available)
    func nineWrongThenFiveAtOnceCheckOnlyOneMore(_ kind: TestDatabaseKind) async throws {
        let harness = try await SignInHarness(kind, policy: Self.policy)
        defer { harness.close() }
        let first = try await harness.requestCode()
        for _ in 0..<9 {
            await #expect(throws: AccountsError(.codeInvalid)) { try await harness.verify(Self.wrong(first)) }
        }
        harness.clock.advance(by: 61)
        let code = try await harness.requestCode()
        let outcomes = await Self.burst(5, of: Self.wrong(code), harness)
        #expect(outcomes["\(AccountsError.Code.codeInvalid)"] == 1 && outcomes["\(AccountsError.Code.tooManyWrongCodes)"] == 4)
    }

    /// A right code clears the hour's wrong codes, so the cap counts afresh; a sign-in that
    /// had none leaves no counter behind (and deletes none: its key has no row).
    @Test(arguments: TestDatabaseKind.available)
    func aRightCodeClearsTheHoursWrongCodes(_ kind: TestDatabaseKind) async throws {
        let harness = try await SignInHarness(kind, policy: Self.policy, failuresPerHour: 5)
        defer { harness.close() }
        func counters() async throws -> Int {
            try await harness.store.database.read { db in
                try db.queryOne("SELECT COUNT(*) AS n FROM rate_counters WHERE counter_key LIKE 'signin-fail:%'")?.get("n") ?? -1
            }
        }
        for wrongCodes in [4, 4, 0] {
            let code = try await harness.requestCode()
            for _ in 0..<wrongCodes {
                await #expect(throws: AccountsError(.codeInvalid)) { try await harness.verify(Self.wrong(code)) }
            }
            #expect(try await counters() == (wrongCodes > 0 ? 1 : 0))
            try await harness.verify(code)
            #expect(try await counters() == 0)
            harness.clock.advance(by: 61)
        }
    }

    /// A number with no live code is told why from its newest one (asked for only then): it
    /// expired, or it used its attempts.
    @Test(arguments: TestDatabaseKind.available)
    func aCodeThatIsNoLongerLiveIsRefusedWithItsReason(_ kind: TestDatabaseKind) async throws {
        var policy = Self.policy
        policy.attempts = 2
        let harness = try await SignInHarness(kind, policy: policy)
        defer { harness.close() }
        let expiring = try await harness.requestCode()
        harness.clock.advance(by: TimeInterval(policy.lifetimeSeconds + 1))
        await #expect(throws: AccountsError(.codeExpired)) { try await harness.verify(expiring) }
        let code = try await harness.requestCode()
        for _ in 0..<2 {
            await #expect(throws: AccountsError(.codeInvalid)) { try await harness.verify(Self.wrong(code)) }
        }
        // The code that used the last attempt ends it; after that it is no longer live.
        for _ in 0..<2 {
            await #expect(throws: AccountsError(.codeAttemptsUsed)) { try await harness.verify(code) }
        }
    }

    /// A right code for an account deleted since it was sent starts no session: the account's
    /// lock, sent with the code's lookup, finds nothing, and the code is refused as invalid.
    @Test(arguments: TestDatabaseKind.available)
    func aRightCodeForAnAccountDeletedSinceStartsNoSession(_ kind: TestDatabaseKind) async throws {
        let harness = try await SignInHarness(kind, policy: Self.policy)
        defer { harness.close() }
        let code = try await harness.requestCode()
        let accountID = try #require(try await harness.store.database.read { db in
            try db.queryOne("SELECT id FROM accounts WHERE tenant_id = ?", harness.tenantID)?.get("id", as: String.self)
        })
        let principal = SessionPrincipal(
            tenantId: harness.tenantID, accountId: accountID, sessionId: "none", status: "CREATED", generation: 0, platform: nil)
        #expect(try await harness.accounts.deleteAccountReporting(principal))
        await #expect(throws: AccountsError(.codeInvalid)) { try await harness.verify(code) }
        let sessions = try await harness.store.database.read { db in
            try db.queryOne("SELECT COUNT(*) AS n FROM account_sessions WHERE account_id = ?", accountID)?.get("n", as: Int64.self)
        }
        #expect(sessions == 0)
    }

    static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    /// Sends `count` copies of `code` at once; counts the error codes they got.
    static func burst(_ count: Int, of code: String, _ harness: SignInHarness) async -> [String: Int] {
        await withTaskGroup(of: String?.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        try await harness.verify(code)
                        return nil
                    } catch {
                        return (error as? AccountsError).map { "\($0.code)" } ?? "unexpected: \(error)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { counts, code in
                if let code { counts[code, default: 0] += 1 }
            }
        }
    }
}
