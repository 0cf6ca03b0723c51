import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
import GatehouseFormats
import Testing
@testable import GatehouseConsoleEngine

/// Console operators on both databases: a password and a TOTP code sign in, failures lock
/// the operator out (counted in the same statement that decides, so concurrent guesses
/// cannot pass the limit), a code is used once, and every change is in the audit log.
@Suite struct ConsoleOperatorTests {
    final class Harness: @unchecked Sendable {
        let store: TestDatabase
        let clock = ManualClock(Date(timeIntervalSince1970: Double(Int64(Date().timeIntervalSince1970))))
        let engine: ConsoleEngine

        init(_ kind: TestDatabaseKind) throws {
            store = try TestDatabase(kind)
            let clock = self.clock
            _ = try DatabaseMigrator(migrations: CoreMigrations.all + ConsoleMigrations.all, now: { clock.now }).migrate(store.database)
            engine = ConsoleEngine(
                environment: .test(database: store.database, clock: clock), secrets: try SecretBox(key: SystemRandom().bytes(32)),
                passwordCost: .init(logN: 10, r: 8, p: 1))
        }

        /// The operator's authenticator, from the URI they were shown once.
        func authenticator(_ created: NewConsoleOperator) throws -> TOTP {
            let query = try #require(URLComponents(string: created.totpURI)?.queryItems)
            let secret = try #require(query.first { $0.name == "secret" }?.value.flatMap(Base32.decode))
            return TOTP(secret: secret)
        }
    }

    static let password = "correct horse battery staple"

    @Test(arguments: TestDatabaseKind.available)
    func aPasswordAndACurrentCodeSignInOnce(_ kind: TestDatabaseKind) async throws {
        let h = try Harness(kind)
        defer { h.store.close() }
        let created = try await h.engine.createOperator(email: " Ops@Example.com ", role: .admin, password: Self.password)
        #expect(created.account.email == "ops@example.com" && created.account.role == .admin)
        #expect(created.totpURI.hasPrefix("otpauth://totp/Gatehouse%20Console:ops%40example.com?secret="))
        let totp = try h.authenticator(created)
        let code = totp.code(at: h.clock.now)
        #expect(try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: code) == created.account)
        // The same code again (a replay, or a second tab): refused.
        await #expect(throws: ConsoleError.signInRefused) { try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: code) }
        h.clock.advance(by: 30)
        _ = try await h.engine.signIn(email: "OPS@example.com", password: Self.password, code: totp.code(at: h.clock.now))
        // Wrong password, wrong code, unknown email: one refusal.
        h.clock.advance(by: 30)
        for (email, password, code) in [
            ("ops@example.com", "wrong horse battery staple", totp.code(at: h.clock.now)), ("ops@example.com", Self.password, "000000"),
            ("nobody@example.com", Self.password, totp.code(at: h.clock.now)), ("not an email\u{0}", Self.password, "123456"),
        ] {
            await #expect(throws: ConsoleError.signInRefused) { try await h.engine.signIn(email: email, password: password, code: code) }
        }
        // Created and signed in, in the audit log; nothing of the password or secret is kept in the clear.
        let actions = try await h.engine.auditLog().map(\.entry.action)
        #expect(actions.filter { $0 == "operator.sign_in" }.count == 2 && actions.contains("operator.create"))
        let stored = try await h.store.database.read { db in try db.queryOne("SELECT * FROM console_operators")! }
        #expect(try !(stored.get("password_hash", as: String.self)).contains(Self.password))
        #expect(try !(stored.get("totp_secret", as: String.self)).contains(Base32.encode(h.authenticator(created).secret, padded: false)))
    }

    @Test(arguments: TestDatabaseKind.available)
    func repeatedFailuresLockTheOperatorOutEvenWhenGuessedAtOnce(_ kind: TestDatabaseKind) async throws {
        let h = try Harness(kind)
        defer { h.store.close() }
        let created = try await h.engine.createOperator(email: "ops@example.com", role: .viewer, password: Self.password)
        let totp = try h.authenticator(created)
        // Twelve wrong guesses at once: the fifth locks, whatever the order.
        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask {
                    do {
                        _ = try await h.engine.signIn(email: "ops@example.com", password: "wrong password \(index)", code: "123456")
                        return "signed in"
                    } catch ConsoleError.signInRefused {
                        return "refused"
                    } catch ConsoleError.locked {
                        return "locked"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(!outcomes.contains("signed in") && outcomes.filter { $0 == "refused" }.count <= 4 && outcomes.contains("locked"))
        // Locked: the right password and code do not sign in either, until the lockout ends.
        await #expect(throws: ConsoleError.locked(until: h.clock.now.addingTimeInterval(ConsoleEngine.lockout))) {
            try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: totp.code(at: h.clock.now))
        }
        h.clock.advance(by: ConsoleEngine.lockout + 1)
        // Once the lockout has run out the count starts again: one mistake does not lock anew.
        await #expect(throws: ConsoleError.signInRefused) {
            try await h.engine.signIn(email: "ops@example.com", password: "one more wrong password", code: totp.code(at: h.clock.now))
        }
        #expect(try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: totp.code(at: h.clock.now)) == created.account)
        // Guesses while locked do not extend the lock.
        for index in 0..<5 {
            _ = try? await h.engine.signIn(email: "ops@example.com", password: "wrong again \(index)", code: "123456")
        }
        let lockedAt = h.clock.now
        h.clock.advance(by: 600)
        _ = try? await h.engine.signIn(email: "ops@example.com", password: "a guess during the lock", code: "123456")
        h.clock.set(lockedAt.addingTimeInterval(ConsoleEngine.lockout + 1))
        h.clock.advance(by: 30)
        #expect(try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: totp.code(at: h.clock.now)) == created.account)
    }

    @Test(arguments: TestDatabaseKind.available)
    func operatorsAreCheckedWhenCreated(_ kind: TestDatabaseKind) async throws {
        let h = try Harness(kind)
        defer { h.store.close() }
        _ = try await h.engine.createOperator(email: "ops@example.com", role: .admin, password: Self.password)
        await #expect(throws: ConsoleError.emailTaken) { try await h.engine.createOperator(email: "OPS@example.com", role: .viewer, password: Self.password) }
        await #expect(throws: ConsoleError.weakPassword) { try await h.engine.createOperator(email: "b@example.com", role: .viewer, password: "short") }
        for email in ["", "no-at-sign", "a@b", "nul\u{0}@example.com", "two@@example.com"] {
            await #expect(throws: ConsoleError.invalidEmail) { try await h.engine.createOperator(email: email, role: .viewer, password: Self.password) }
        }
        // Concurrent creations of one email: one operator.
        let made = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { (try? await h.engine.createOperator(email: "race@example.com", role: .viewer, password: Self.password)) != nil } }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(made == 1)
    }

    /// An email no operator has locks out after as many failures as a real one, so the
    /// lockout does not tell which emails are operators'.
    @Test(arguments: TestDatabaseKind.available)
    func anUnknownEmailLocksOutLikeAKnownOne(_ kind: TestDatabaseKind) async throws {
        let h = try Harness(kind)
        defer { h.store.close() }
        _ = try await h.engine.createOperator(email: "ops@example.com", role: .admin, password: Self.password)
        for email in ["ops@example.com", "nobody@example.com"] {
            for _ in 1..<ConsoleEngine.lockoutFailures {
                await #expect(throws: ConsoleError.signInRefused) { try await h.engine.signIn(email: email, password: "wrong password!", code: "123456") }
            }
            do {
                _ = try await h.engine.signIn(email: email, password: "wrong password!", code: "123456")
                Issue.record("\(email): signed in")
            } catch ConsoleError.locked {
                // As a real operator's.
            } catch {
                Issue.record("\(email): \(error) where a lockout was due")
            }
        }
    }

    /// Confirming the password counts toward the same lockout, is refused while one is in
    /// force, and a right one clears the count.
    @Test(arguments: TestDatabaseKind.available)
    func confirmationsShareTheLockout(_ kind: TestDatabaseKind) async throws {
        let h = try Harness(kind)
        defer { h.store.close() }
        let created = try await h.engine.createOperator(email: "ops@example.com", role: .admin, password: Self.password)
        let account = try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: try h.authenticator(created).code(at: h.clock.now))
        let session = try await h.engine.openSession(for: account, clientAddress: "127.0.0.1").session
        for _ in 0..<3 {
            await #expect(throws: ConsoleError.signInRefused) { try await h.engine.confirmPassword(session, password: "not it at all", clientAddress: "127.0.0.1") }
        }
        try await h.engine.confirmPassword(session, password: Self.password, clientAddress: "127.0.0.1")
        let failures: Int = try await h.store.database.read { db in try db.queryOne("SELECT failed_attempts FROM console_operators")!.get("failed_attempts") }
        #expect(failures == 0)
        for _ in 0..<ConsoleEngine.lockoutFailures - 1 {
            await #expect(throws: ConsoleError.signInRefused) { try await h.engine.confirmPassword(session, password: "not it at all", clientAddress: "127.0.0.1") }
        }
        await #expect(throws: ConsoleError.locked(until: h.clock.now.addingTimeInterval(ConsoleEngine.lockout))) {
            try await h.engine.confirmPassword(session, password: "not it at all", clientAddress: "127.0.0.1")
        }
        // Locked: the right password is refused too, and the sessions are gone.
        await #expect(throws: ConsoleError.self) { try await h.engine.confirmPassword(session, password: Self.password, clientAddress: "127.0.0.1") }
        #expect(try await h.engine.session(token: "x") == nil)
    }

    /// A passkey stands for the code: added from a confirmed session, used with the password,
    /// its challenge once; a wrong password with a right passkey counts as a failure.
    @Test(arguments: TestDatabaseKind.available)
    func aPasskeyStandsForTheCode(_ kind: TestDatabaseKind) async throws {
        let h = try Harness(kind)
        defer { h.store.close() }
        let created = try await h.engine.createOperator(email: "ops@example.com", role: .admin, password: Self.password)
        let account = try await h.engine.signIn(email: "ops@example.com", password: Self.password, code: try h.authenticator(created).code(at: h.clock.now))
        let session = try await h.engine.openSession(for: account, clientAddress: "127.0.0.1").session
        let party = WebAuthnRelyingParty(id: "localhost", origins: ["http://localhost:8081"])
        let authenticator = SoftwareAuthenticator()
        let totp = try h.authenticator(created)
        // Adding one asks for a current code (the sign-in's step is spent: the next one).
        h.clock.advance(by: 30)
        let creation = try await h.engine.passkeyCreation(session)
        let (credential, response) = try authenticator.register(
            algorithm: .es256, rpID: "localhost", origin: "http://localhost:8081", challenge: creation.challenge, userHandle: creation.userID)
        await #expect(throws: ConsoleError.codeRefused) {
            try await h.engine.registerPasskey(session, response: response, name: "Laptop", code: "000000", party: party, clientAddress: "127.0.0.1")
        }
        // That try spent its challenge; a new one, with the right code.
        let again = try await h.engine.passkeyCreation(session)
        let (credential2, response2) = try authenticator.register(
            algorithm: .es256, rpID: "localhost", origin: "http://localhost:8081", challenge: again.challenge, userHandle: again.userID)
        _ = credential
        let passkey = try await h.engine.registerPasskey(
            session, response: response2, name: "Laptop", code: totp.code(at: h.clock.now), party: party, clientAddress: "127.0.0.1")
        #expect(try await h.engine.passkeys(operatorID: account.id) == [passkey])
        h.clock.advance(by: 30)
        await #expect(throws: ConsoleError.passkeyRefused) {
            try await h.engine.registerPasskey(session, response: response2, name: "Again", code: totp.code(at: h.clock.now), party: party, clientAddress: "127.0.0.1")
        }
        let assertion = try authenticator.assert(credential2, origin: "http://localhost:8081", challenge: h.engine.passkeySignInChallenge())
        #expect(try await h.engine.signIn(email: "ops@example.com", password: Self.password, second: .passkey(assertion, party)) == account)
        #expect(try await h.engine.passkeys(operatorID: account.id).first?.lastUsedAt != nil)
        // The same answer again: its challenge is spent.
        await #expect(throws: ConsoleError.signInRefused) {
            try await h.engine.signIn(email: "ops@example.com", password: Self.password, second: .passkey(assertion, party))
        }
        // Refused: a wrong password with a right passkey, another origin, a registration's
        // challenge, a challenge past its five minutes, one this console did not sign, a user
        // handle not the operator's.
        let signIn: ([UInt8], String, [UInt8]?) throws -> WebAuthnRelyingParty.Assertion = { challenge, origin, handle in
            var made = try authenticator.assert(credential2, origin: origin, challenge: challenge)
            if let handle { made = WebAuthnRelyingParty.Assertion(
                id: made.id, rawID: made.rawID, type: made.type, clientDataJSON: made.clientDataJSON, authenticatorData: made.authenticatorData,
                signature: made.signature, userHandle: handle) }
            return made
        }
        let creationChallenge = try await h.engine.passkeyCreation(session).challenge
        let old = h.engine.passkeySignInChallenge()
        var forged = h.engine.passkeySignInChallenge()
        forged[0] ^= 1
        let refused: [(String, WebAuthnRelyingParty.Assertion)] = [
            ("not the password", try signIn(h.engine.passkeySignInChallenge(), "http://localhost:8081", nil)),
            (Self.password, try signIn(h.engine.passkeySignInChallenge(), "http://evil.example", nil)),
            (Self.password, try signIn(creationChallenge, "http://localhost:8081", nil)),
            (Self.password, try signIn(forged, "http://localhost:8081", nil)),
            (Self.password, try signIn(h.engine.passkeySignInChallenge(), "http://localhost:8081", Array(repeating: 7, count: 32))),
        ]
        // Each refusal is counted toward the lockout (the count is cleared before each, so the
        // lockout does not answer for the check).
        func failures() async throws -> Int {
            try await h.store.database.read { db in
                try db.queryOne("SELECT failed_attempts FROM console_operators WHERE id = ?", account.id)!.get("failed_attempts")
            }
        }
        func clearFailures() async throws {
            _ = try await h.store.database.write { db in try db.execute("UPDATE console_operators SET failed_attempts = 0 WHERE id = ?", account.id) }
        }
        for (index, (password, refusedAssertion)) in refused.enumerated() {
            try await clearFailures()
            await #expect(throws: ConsoleError.signInRefused, "case \(index)") {
                try await h.engine.signIn(email: "ops@example.com", password: password, second: .passkey(refusedAssertion, party))
            }
            #expect(try await failures() == 1, "case \(index)")
        }
        h.clock.advance(by: ConsoleEngine.passkeyChallengeLifetime + 1)
        let late = try signIn(old, "http://localhost:8081", nil)
        await #expect(throws: ConsoleError.signInRefused) { try await h.engine.signIn(email: "ops@example.com", password: Self.password, second: .passkey(late, party)) }
        // Another operator's password with this operator's passkey signs neither in.
        let other = try await h.engine.createOperator(email: "other@example.com", role: .viewer, password: Self.password)
        let borrowed = try signIn(h.engine.passkeySignInChallenge(), "http://localhost:8081", nil)
        await #expect(throws: ConsoleError.signInRefused) { try await h.engine.signIn(email: "other@example.com", password: Self.password, second: .passkey(borrowed, party)) }
        // Its creation challenge is this operator's alone.
        let otherAccount = try #require(try await h.engine.operators().first { $0.account.email == "other@example.com" }).account
        let otherSession = try await h.engine.openSession(for: otherAccount, clientAddress: "127.0.0.1").session
        let reopened = try await h.engine.openSession(for: account, clientAddress: "127.0.0.1").session
        let (_, stolen) = try authenticator.register(
            algorithm: .es256, rpID: "localhost", origin: "http://localhost:8081", challenge: try await h.engine.passkeyCreation(reopened).challenge, userHandle: again.userID)
        await #expect(throws: ConsoleError.passkeyRefused) {
            try await h.engine.registerPasskey(
                otherSession, response: stolen, name: "Stolen", code: try h.authenticator(other).code(at: h.clock.now), party: party, clientAddress: "127.0.0.1")
        }
        #expect(try await h.engine.passkeys(operatorID: otherAccount.id).isEmpty)
        // Challenges, answered or not, are swept once past their lifetime.
        h.clock.advance(by: 2 * ConsoleEngine.passkeyChallengeLifetime + 1)
        #expect(try await h.engine.sweepPasskeyChallenges() >= 3)
        // Removing it needs the password typed in the last few minutes.
        h.clock.advance(by: ConsoleSession.confirmationWindow + 1)
        let stale = try #require(try await h.engine.session(token: "unused") ?? Optional(session))
        await #expect(throws: ConsoleError.confirmationNeeded) { try await h.engine.removePasskey(stale, id: passkey.id, clientAddress: "127.0.0.1") }
        let actions = try await h.engine.auditLog().map(\.entry.action)
        #expect(actions.contains("operator.passkey_add"))
    }
}
