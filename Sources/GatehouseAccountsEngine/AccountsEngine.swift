import Foundation
import GatehouseCore
import GatehouseDatabase

/// Passwordless accounts (seed 000 §03): a code to a phone or an email proves ownership,
/// one account per phone number or email per tenant, created on the first request.
/// Codes, attempts, hashing, delivery and resend limits come from `OneTimeCodes`.
public final class AccountsEngine: Sendable {
    let environment: Environment
    let codes: any OneTimeCodes
    public let sessions: SessionService
    let policy: OneTimeCodePolicy
    /// Wrong codes per account and hour, across codes: a new code does not reset it.
    let failuresPerHour: Int
    /// Sign-ins by tenant and method, `otp` (a code was sent) or `passkey` (nothing was):
    /// what passkeys save an operator in messages, on `/metrics`.
    public let signIns = Counters(name: "gatehouse_sign_ins_total", help: "Sign-ins by method: otp (a code was sent) or passkey (nothing was sent).")

    public init(
        environment: Environment, codes: any OneTimeCodes, sessions: SessionService,
        policy: OneTimeCodePolicy = OneTimeCodePolicy(), failuresPerHour: Int = 10
    ) {
        self.environment = environment
        self.codes = codes
        self.sessions = sessions
        self.policy = policy
        self.failuresPerHour = failuresPerHour
    }

    var database: any Database { environment.database }

    /// Sends a sign-in code, creating the account (status `CREATED`) on first contact. The
    /// account, the code and its queued delivery are written in one transaction.
    public func requestCode(tenantID: String, channel: SignInChannel, identifier raw: String, name: String?) async throws {
        let identifier = try Identifier(channel, raw)
        let cleanName = try name.map(Self.validName)
        let now = environment.clock.now
        let id = environment.ids.next().lowercased
        let (codes, policy) = (self.codes, self.policy)
        do {
            try await database.write { db in
                if try Self.find(db, tenantID: tenantID, identifier) == nil {
                    try db.execute(
                        "INSERT INTO accounts (id, tenant_id, phone, email, name, country, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'CREATED', ?)",
                        [.text(id), .text(tenantID), identifier.phone.sqlValue, identifier.email.sqlValue, cleanName.sqlValue,
                         identifier.country.sqlValue, now.sqlValue])
                }
                try codes.sendOneTimeCode(
                    db, tenantID: tenantID, purpose: Self.purpose, policy: policy, channel: identifier.channel,
                    destination: identifier.value, now: now)
            }
        } catch let recent as OneTimeCodeSentRecently {
            throw AccountsError(.codeSentRecently, retryAfter: recent.retryAfter)
        } catch let refused as OneTimeCodeRefused {
            throw AccountsError(.sendingLimited, retryAfter: refused.retryAfter)
        }
        codes.wakeDelivery()
    }

    /// Checks a code and starts a session on success, in one write transaction: the hourly
    /// wrong-code cap is read with its key locked, the code checked, the wrong code counted
    /// or the counter cleared, and the session created. Codes sent at once for one account
    /// wait in turn on the counter's key, so no more than `failuresPerHour` are ever checked
    /// in the hour, on any number of nodes.
    public func verifyCode(tenantID: String, channel: SignInChannel, identifier raw: String, code: String, device: DeviceInfo)
        async throws -> TokenPair
    {
        let identifier = try Identifier(channel, raw)
        guard code.count == policy.codeLength, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else {
            throw AccountsError(.codeInvalid)
        }
        let now = environment.clock.now
        let failureKey = "signin-fail:\(tenantID):\(identifier.value)"
        let (limit, codes, policy, sessions) = (failuresPerHour, self.codes, self.policy, self.sessions)
        let outcome = try await database.write { db -> SignInCheck in
            // The cap's counter and then the code are locked and read in one round trip, and
            // the sign-in's reads (the account's lock, its sessions, the key) travel with them,
            // so a right code's session is written with the COMMIT; the code is checked (and
            // its attempt counted) only under the cap. So every attempt, a wrong or capped one
            // too, locks the account for its transaction (two round trips); attempts at one
            // identifier take their turns on the cap's key first, so they hold it one at a
            // time. Locks are taken cap key, code, account; when the number has no live code,
            // its newest verification is locked only in `apply()`, after the account (nothing
            // that locks a verification waits on an account, so no cycle can form).
            let lockedFailures = try RateCounter.sendLock(db, key: failureKey, now: now, window: 3600)
            let pendingCheck = try codes.sendOneTimeCodeCheck(
                db, tenantID: tenantID, purpose: Self.purpose, policy: policy, channel: identifier.channel,
                destination: identifier.value, code: code, now: now)
            let pendingSignIn = try sessions.sendSignIn(db, tenantID: tenantID, account: .identifier(identifier))
            let failures = try lockedFailures.read()
            if failures.count >= limit { return .locked(retryAfter: failures.retryAfter) }
            let check = try pendingCheck.apply()
            switch check {
            case .verified:
                // Only a key with wrong codes has a row (every hit of it takes the same lock).
                if try lockedFailures.isStored() { try db.send("DELETE FROM rate_counters WHERE counter_key = ?", failureKey) }
                guard let started = try pendingSignIn.start(device: device, now: now) else { return .refused(.invalid) }
                return .signedIn(started)
            case .invalid:
                _ = try RateCounter.hit(db, key: failureKey, now: now, window: 3600)
                return .refused(check)
            case .expired, .tooManyAttempts:
                return .refused(check)
            }
        }
        switch outcome {
        case .locked(let retryAfter):
            throw AccountsError(.tooManyWrongCodes, retryAfter: retryAfter)
        case .signedIn(let started):
            signIns.increment(["tenant": tenantID, "method": "otp"])
            return started.committed(to: sessions)
        case .refused(.expired):
            throw AccountsError(.codeExpired)
        case .refused(.tooManyAttempts):
            throw AccountsError(.codeAttemptsUsed)
        case .refused:
            throw AccountsError(.codeInvalid)
        }
    }

    /// What the checking transaction decided; errors are thrown after it commits, so that a
    /// wrong code's attempt and its count in the hour are kept.
    private enum SignInCheck: Sendable {
        case locked(retryAfter: Int)
        case signedIn(StartedSession)
        case refused(OneTimeCodeCheck)
    }

    /// What the codes are for, so that the code engine keeps sign-in codes apart from others.
    static let purpose = "sign-in"

    static func find(_ db: any DatabaseConnection, tenantID: String, _ identifier: Identifier) throws -> Row? {
        try db.queryOne(
            "SELECT * FROM accounts WHERE tenant_id = ? AND \(identifier.column) = ? AND deleted_at IS NULL", tenantID, identifier.value)
    }

    static func validName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count), !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw AccountsError(.nameInvalid)
        }
        return name
    }
}
