import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

// The 429s and the 402 of a start, in the order of §6: cooldown, volume (with the pumping
// guard's blocks and budgets), public per account, balance.
extension VerificationEngine {
    /// With `counting`, inside the start's write transaction: takes the number's lock first
    /// and counts the public start. Without, in a read before the request callback: the same
    /// checks, writing nothing, so a start that would be refused never calls the customer.
    /// `range` is the phone range a code would go to (nil for email and test numbers).
    func checkLimits(
        _ db: any DatabaseConnection, caller: VerificationCaller, destination: String, range: PhoneRange?, fee: Int64, now: Date, counting: Bool
    ) throws {
        let reads = try Self.sendLimitReads(db, app: caller.application, destination: destination, range: range, now: now, locking: counting)
        try judgeLimits(reads, caller: caller, fee: fee, now: now, counting: counting)
    }

    /// What the limits are judged on, sent together (one round trip on PostgreSQL). With
    /// `locking`, the number's lock goes first, so every read after it sees the starts that
    /// held it.
    struct LimitReads {
        let cooldown: SentStatement?
        let block: SentBlocks?
        let volume: [(limit: VolumePeriods.Limit, count: SentStatement)]
        let balance: SentStatement
    }

    static func sendLimitReads(
        _ db: any DatabaseConnection, app: OTPApplication, destination: String, range: PhoneRange?, now: Date, locking: Bool
    ) throws -> LimitReads {
        if locking { try lockDestination(db, applicationID: app.id, destination: destination) }
        let cooldown = try sendCooldown(db, app: app, destination: destination)
        // The balance goes with the pins and blocks where there are some to read.
        let block = try sendBlock(db, app: app, range: range)
        return LimitReads(
            cooldown: cooldown, block: block, volume: try sendVolume(db, app: app, range: range, now: now),
            balance: try block?.sent ?? sendBalance(db, tenantID: app.tenantId))
    }

    /// The limits in the order of §6, from `reads`; with `counting`, the public start is counted.
    func judgeLimits(_ reads: LimitReads, caller: VerificationCaller, fee: Int64, now: Date, counting: Bool) throws {
        let app = caller.application
        try Self.judgeCooldown(reads.cooldown, app: app, now: now)
        try Self.judgeBlock(reads.block, now: now)
        try Self.judgeVolume(reads.volume)
        let publicKey = caller.mode == .public ? "verify:public:\(app.tenantId)" : nil
        let limiter = environment.rateLimiter
        // A request rate limit, counted in this node's memory rather than in a row every
        // public start of the tenant would update. Checked here, in the order of §6, but
        // counted only once the balance allows the start, so a 402 takes no slot.
        if let publicKey {
            let seen = limiter.peek(publicKey, now: now, window: settings.window)
            if seen.count + 1 > settings.publicPerAccount { throw VerificationFailure(.rateLimitPublicPerAccount, retryAfter: seen.retryAfter) }
        }
        if try Self.balance(reads.balance) < fee { throw VerificationFailure(.balanceInsufficient) }
        if counting, let publicKey {
            // The count decides too, so two starts that both saw room cannot both take it.
            let hits = limiter.hit(publicKey, now: now, window: settings.window)
            if hits.count > settings.publicPerAccount { throw VerificationFailure(.rateLimitPublicPerAccount, retryAfter: hits.retryAfter) }
        }
    }

    /// Starts for one number of one application take turns, so that "one live verification
    /// per number" and the cooldown hold across nodes; starts for other numbers, of the same
    /// application too, never wait on it. On PostgreSQL this is a transaction-scoped advisory
    /// lock keyed by application and number (released by COMMIT or ROLLBACK, so a node that
    /// dies holds nothing); SQLite's write transaction already holds its only write lock.
    static func lockDestination(_ db: any DatabaseConnection, applicationID: String, destination: String) throws {
        guard let lock = db.dialect.transactionLock else { return }
        // Its answer says nothing: what follows waits behind it on the server.
        try db.send(lock, [.integer(advisoryKey("verification-number", applicationID, destination))])
    }

    /// A 64-bit lock key from a namespace and parts: the first eight bytes of their SHA-256.
    static func advisoryKey(_ parts: String...) -> Int64 {
        let digest = SHA256.hash(Data(parts.joined(separator: "\u{0}").utf8))
        return Int64(bitPattern: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// 429 while the last start that sent something to this number is younger than the
    /// application's cooldown; denied and unreachable starts do not count.
    static func sendCooldown(_ db: any DatabaseConnection, app: OTPApplication, destination: String) throws -> SentStatement? {
        guard app.cooldownSeconds > 0 else { return nil }
        return try db.send(
            """
            SELECT created_at FROM verifications WHERE application_id = ? AND destination = ? AND status <> 'denied'
              AND (error_code IS NULL OR error_code <> 'destination_not_supported_for_channel')
            ORDER BY created_at DESC LIMIT 1
            """, app.id, destination)
    }

    static func judgeCooldown(_ sent: SentStatement?, app: OTPApplication, now: Date) throws {
        guard let last = try sent?.rows().first else { return }
        let started: Date = try last.get("created_at")
        let elapsed = now.timeIntervalSince(started)
        if elapsed < Double(app.cooldownSeconds) {
            throw VerificationFailure(.destinationInCooldown, retryAfter: max(1, Int((Double(app.cooldownSeconds) - elapsed).rounded(.up))))
        }
    }
}
