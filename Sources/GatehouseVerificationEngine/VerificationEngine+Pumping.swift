import Foundation
import GatehouseCore
import GatehouseDatabase

// The SMS-pumping guard. A pumping attack sends codes to numbers the attacker is paid for
// (one operator's range, usually one prefix) and never enters them: volume alone looks like
// a busy day, but the share of codes verified collapses. So besides the budgets (codes per
// prefix and per country per hour and day, in `VolumePeriods`), each code sent and each code
// verified is counted per prefix and country in hourly rows; a start reads its prefix's last
// hour and, when the prefix is busy, far busier than it used to be, and converts far worse
// than the application does, blocks it for the cool-off. The start that finds this out is
// still sent (its transaction may be the caller's, which a refusal would roll back with the
// block); every later one is refused while the block lasts.
extension VerificationEngine {
    /// Refuses a start to a prefix blocked now (a 429, as a budget would).
    static func checkBlock(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange?, now: Date) throws {
        guard let range,
            let row = try db.queryOne(
                """
                SELECT blocked_until FROM verification_prefix_blocks
                WHERE application_id = ? AND prefix = ? AND lifted_at IS NULL AND (blocked_until IS NULL OR blocked_until > ?)
                """, app.id, range.prefix, now)
        else { return }
        let until: Date? = try row.get("blocked_until")
        throw VerificationFailure(.volumeLimitReached, retryAfter: until.map { max(1, Int($0.timeIntervalSince(now).rounded(.up))) })
    }

    /// Counts a code sent to `range` and blocks its prefix if its conversion says pumping.
    func watchConversion(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange, now: Date) throws {
        let shard = Int(environment.random.uniform(below: UInt64(Self.volumeShards)))
        let hour = ConversionCounts.hourStart(now)
        try ConversionCounts.add(db, applicationID: app.id, range: range, hour: hour, shard: shard, sent: 1)
        guard app.autoBlockPrefixes else { return }
        let rules = settings.pumping
        let window = try ConversionCounts.lastHour(db, applicationID: app.id, scope: "prefix", value: range.prefix, now: now)
        guard window.sent >= Double(rules.minimumVolume) else { return }
        if let existing = try db.queryOne(
            "SELECT blocked_until, lifted_at FROM verification_prefix_blocks WHERE application_id = ? AND prefix = ?", app.id, range.prefix)
        {
            let lifted: Date? = try existing.get("lifted_at")
            let until: Date? = try existing.get("blocked_until")
            // An operator who lifted a block gets an hour of fresh counts before it can return.
            if let lifted, now.timeIntervalSince(lifted) < 3600 { return }
            if lifted == nil, until.map({ $0 > now }) ?? true { return }
        }
        let baseline = try self.baseline(db, app: app, now: now)
        guard window.verified / window.sent < rules.conversionRatio * baseline else { return }
        let history = try ConversionCounts.before(db, applicationID: app.id, scope: "prefix", value: range.prefix, hour: hour, days: rules.baselineDays)
        let since = max(ConversionCounts.hourStart(app.createdAt), hour.addingTimeInterval(-Double(rules.baselineDays) * 86_400))
        let hours = max(1, (hour.addingTimeInterval(-3600).timeIntervalSince(since) / 3600).rounded(.down))
        guard window.sent >= rules.spikeFactor * history.sent / hours else { return }
        try block(db, app: app, range: range, window: window, baseline: baseline, now: now)
    }

    /// The application's share of codes verified over the days before the last hour, read
    /// at most every 10 minutes per node.
    private func baseline(_ db: any DatabaseConnection, app: OTPApplication, now: Date) throws -> Double {
        let rules = settings.pumping
        return try baselines.value(for: app.id) {
            let counts = try ConversionCounts.before(
                db, applicationID: app.id, scope: "country", value: nil, hour: ConversionCounts.hourStart(now), days: rules.baselineDays)
            return counts.sent < Double(rules.baselineMinimum) ? rules.defaultBaseline : counts.verified / counts.sent
        } ?? rules.defaultBaseline
    }

    private func block(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange, window: ConversionCounts.Window, baseline: Double, now: Date)
        throws
    {
        let until = now.addingTimeInterval(settings.pumping.coolOff)
        // Starts racing to the same conclusion block once: only a row that is not blocked now changes.
        let changed = try db.execute(
            """
            INSERT INTO verification_prefix_blocks (application_id, prefix, country, reason, sent, verified, baseline_permille, blocked_at,
              blocked_until, lifted_at)
            VALUES (?, ?, ?, 'conversion', ?, ?, ?, ?, ?, NULL)
            ON CONFLICT (application_id, prefix) DO UPDATE SET country = excluded.country, reason = excluded.reason, sent = excluded.sent,
              verified = excluded.verified, baseline_permille = excluded.baseline_permille, blocked_at = excluded.blocked_at,
              blocked_until = excluded.blocked_until, lifted_at = NULL
            WHERE verification_prefix_blocks.lifted_at IS NOT NULL
              OR (verification_prefix_blocks.blocked_until IS NOT NULL AND verification_prefix_blocks.blocked_until <= ?)
            """,
            [
                .text(app.id), .text(range.prefix), .text(range.country), .integer(Int64(window.sent.rounded())),
                .integer(Int64(window.verified.rounded())), .integer(Int64((baseline * 1000).rounded())), now.sqlValue, until.sqlValue, now.sqlValue,
            ])
        guard changed == 1 else { return }
        prefixBlocksImposed.increment(["reason": "conversion"])
        environment.logger.warning(
            "SMS pumping suspected: prefix blocked",
            [
                "tenant": .plain(app.tenantId), "application": .plain(app.id), "prefix": .init("+" + range.prefix), "country": .plain(range.country),
                "sent": .plain(String(Int(window.sent.rounded()))), "verified": .plain(String(Int(window.verified.rounded()))),
                "baseline": .plain(String(format: "%.2f", baseline)), "until": .plain(ISO8601DateFormatter().string(from: until)),
            ])
    }

    /// Counts a verified code on its prefix and country, in the hour it was sent.
    static func countVerified(_ db: any DatabaseConnection, verificationID id: String) throws {
        guard let row = try db.queryOne(
            "SELECT application_id, destination_prefix, destination_country, created_at FROM verifications WHERE id = ?", id),
            let prefix: String = try row.get("destination_prefix"), let country: String = try row.get("destination_country")
        else { return }
        let created: Date = try row.get("created_at")
        let shard = Int(id.utf8.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) } % UInt32(volumeShards))
        try ConversionCounts.add(
            db, applicationID: try row.get("application_id"), range: PhoneRange(prefix: prefix, country: country),
            hour: ConversionCounts.hourStart(created), shard: shard, verified: 1)
    }
}

/// Where a code to a phone goes, as the pumping guard counts it: the number's prefix
/// (``PhoneNumber/prefix``) and its country (ISO code, or `+800` and the like for
/// non-geographic numbers).
struct PhoneRange: Sendable, Equatable {
    let prefix: String
    let country: String

    init(prefix: String, country: String) {
        self.prefix = prefix
        self.country = country
    }

    /// Nil for email, and for digits libphonenumber cannot read as a number.
    init?(destination: String, channel: VerificationChannel) {
        guard channel != .email, let number = try? PhoneNumber.parseDigits(destination) else { return nil }
        prefix = number.prefix
        country = number.region ?? "+\(number.countryCode)"
    }
}
