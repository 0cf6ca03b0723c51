import Foundation
import GatehouseCore
import GatehouseDatabase

// The SMS-pumping guard. A pumping attack sends codes to numbers the attacker is paid for
// (one operator's range, usually one prefix) and never enters them: volume alone looks like
// a busy day, but the share of codes verified collapses. So besides the budgets (codes per
// prefix and per country per hour and day, in `VolumePeriods`), each code sent and each code
// verified is counted per prefix and country in hourly rows; a start reads its prefix's last
// hour and, when the prefix is busy, far busier than it used to be, and converts far worse
// than the application does, blocks it for the cool-off. Codes younger than a minute and
// not verified are not judged yet (their owners may be typing), so a rush of real sign-ins
// is not read as pumping; they are counted in ten-second buckets (`RecentCounts`), so every
// check is a constant number of rows whatever the traffic. The start that finds pumping is still sent (its transaction may be the
// caller's, which a refusal would roll back with the block); later ones are refused.
extension VerificationEngine {
    /// How long a pending code is given before it counts as not entered.
    static let judgementDelay: TimeInterval = 60

    /// Refuses a start to a blocked prefix (a 429, as a budget would): one the guard or an
    /// operator blocked on the application, or one an operator pinned for the whole tenant.
    /// An operator's prefix may be shorter than the guard's (`+44` holds `+447400`). The pins
    /// and the blocks (lifted and ended ones too, which the guard's watch reads later in the
    /// same start) come in one statement.
    /// The tenant's balance parts come in the same statement (``balance(_:)`` reads them from
    /// ``SentBlocks/sent``): a statement fewer for a start.
    static func sendBlock(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange?) throws -> SentBlocks? {
        guard let range else { return nil }
        let leading = range.leadingPrefixes
        let prefixes = leading.contains(range.prefix) ? leading : leading + [range.prefix]
        let marks = prefixes.map { _ in "?" }.joined(separator: ", ")
        // The first part names and types the columns: `micros` is cast, since PostgreSQL
        // would take two untyped NULLs in a row for text.
        let sent = try db.send(
            """
            SELECT 'pin' AS source, prefix, NULL AS blocked_until, NULL AS lifted_at, CAST(NULL AS BIGINT) AS micros
            FROM verification_tenant_prefix_pins WHERE tenant_id = ? AND prefix IN (\(marks))
            UNION ALL
            SELECT 'block', prefix, blocked_until, lifted_at, NULL FROM verification_prefix_blocks
            WHERE application_id = ? AND prefix IN (\(marks))
            UNION ALL
            \(balanceParts(padding: "NULL, NULL, NULL, "))
            """,
            [.text(app.tenantId)] + prefixes.map(SQLValue.text) + [.text(app.id)] + prefixes.map(SQLValue.text) + [.text(app.tenantId), .text(app.tenantId)])
        return SentBlocks(sent: sent, prefix: range.prefix)
    }

    /// The refusal ``sendBlock(_:app:range:)``'s pins and blocks call for, if any.
    static func judgeBlock(_ sent: SentBlocks?, now: Date) throws {
        guard let sent else { return }
        let rows = try sent.rows()
        if rows.contains(where: { $0.source == "pin" }) { throw VerificationFailure(.volumeLimitReached) }
        let ends = rows.filter { $0.source == "block" && $0.holds(at: now) }.map(\.blockedUntil)
        guard !ends.isEmpty else { return }
        // The longest block decides; a pinned one has no end to wait for.
        let end = ends.contains { $0 == nil } ? nil : ends.compactMap { $0 }.max()
        throw VerificationFailure(.volumeLimitReached, retryAfter: end.map { max(1, Int($0.timeIntervalSince(now).rounded(.up))) })
    }

    /// Counts a code sent to `range`: its hour's counts and, where the guard watches, its
    /// recent bucket, for the start to count once it commits (``PendingCounts``).
    static func countConversion(_ counts: inout HeldCounts, app: OTPApplication, range: PhoneRange, now: Date) {
        counts.conversion = (app.id, range, ConversionCounts.hourStart(now))
        guard app.autoBlockPrefixes else { return }
        counts.recent = (app.id, range.prefix, RecentCounts.bucketStart(now))
    }

    /// The guard's read of `range`'s last hour, sent with the start's other reads (one round
    /// trip on PostgreSQL); nil where the guard does not watch.
    func sendWatch(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange?, now: Date) throws -> ConversionCounts.SentLastHour? {
        guard app.autoBlockPrefixes, let range else { return nil }
        return try ConversionCounts.sendLastHour(
            db, applicationID: app.id, prefix: range.prefix, now: now, unverifiedSince: RecentCounts.unverifiedSince(now, span: Self.judgementDelay))
    }

    /// Blocks the prefix of a code about to be sent to `range` (and counted,
    /// ``countConversion(_:app:range:now:)``) if its conversion says pumping. `blocks` is the
    /// start's own read of its prefix's blocks, `lastHour` its ``sendWatch(_:app:range:now:)``,
    /// which was read before this code was counted.
    func watchConversion(
        _ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange, blocks: SentBlocks, lastHour: ConversionCounts.SentLastHour, now: Date
    ) throws {
        let hour = ConversionCounts.hourStart(now)
        let rules = settings.pumping
        // This code, and the unverified ones of the last minute, are not judged yet: counted,
        // not looked up, so a busy prefix costs a start no more than a quiet one. This code is
        // in this hour's count and its recent bucket once the start has committed.
        // What this node counted and has not flushed is in neither.
        var (window, young) = try lastHour.read()
        let held = pendingCounts.codes(
            applicationID: app.id, prefix: range.prefix, hoursFrom: hour.addingTimeInterval(-3600),
            bucketsFrom: RecentCounts.unverifiedSince(now, span: Self.judgementDelay))
        for (start, codes) in held.hours { window.add(ConversionCounts.weighted(hour: start, sent: codes.sent, verified: codes.verified, now: now)) }
        window.sent += 1
        young += held.recent.sent - held.recent.verified + 1
        guard window.sent >= Double(rules.minimumVolume) else { return }
        // Never below zero: codes verified before the guard was turned on left their buckets.
        let judged = Window(sent: window.sent - Double(max(0, young)), verified: window.verified)
        guard judged.sent >= Double(rules.minimumVolume), try !blocks.guardHolds(now: now) else { return }
        let baseline = try self.baseline(db, app: app, now: now)
        guard judged.verified / judged.sent < rules.conversionRatio * baseline.share else { return }
        let history = try prefixHistory(db, app: app, prefix: range.prefix, hour: hour)
        let since = max(baseline.firstHour ?? hour, hour.addingTimeInterval(-Double(rules.baselineDays) * 86_400))
        let hours = max(1, (hour.addingTimeInterval(-3600).timeIntervalSince(since) / 3600).rounded(.down))
        guard window.sent >= rules.spikeFactor * history / hours else { return }
        try block(db, app: app, range: range, window: judged, baseline: baseline.share, now: now)
    }

    typealias Window = ConversionCounts.Window

    /// The application's share of codes verified over the days before the last hour, and the
    /// first hour its codes were counted in; read at most every 10 minutes per node.
    struct Baseline: Sendable {
        let share: Double
        let firstHour: Date?
    }

    private func baseline(_ db: any DatabaseConnection, app: OTPApplication, now: Date) throws -> Baseline {
        let rules = settings.pumping
        return try baselines.value(for: app.id) {
            let counts = try ConversionCounts.before(
                db, applicationID: app.id, scope: "country", value: nil, hour: ConversionCounts.hourStart(now), days: rules.baselineDays)
            let share = counts.sent < Double(rules.baselineMinimum) ? rules.defaultBaseline : counts.verified / counts.sent
            return Baseline(share: share, firstHour: try ConversionCounts.firstHour(db, applicationID: app.id))
        } ?? Baseline(share: rules.defaultBaseline, firstHour: nil)
    }

    /// Codes sent to the prefix over the days before the last hour, per node for 10 minutes.
    private func prefixHistory(_ db: any DatabaseConnection, app: OTPApplication, prefix: String, hour: Date) throws -> Double {
        let days = settings.pumping.baselineDays
        return try prefixHistories.value(for: "\(app.id):\(prefix):\(hour.timeIntervalSince1970)") {
            try ConversionCounts.before(db, applicationID: app.id, scope: "prefix", value: prefix, hour: hour, days: days).sent
        } ?? 0
    }

    private func block(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange, window: Window, baseline: Double, now: Date) throws {
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
        // A prefix names an operator's range, not a subscriber: it is logged as it is.
        environment.logger.warning(
            "SMS pumping suspected: prefix blocked",
            [
                "tenant": .plain(app.tenantId), "application": .plain(app.id), "prefix": .plain("+" + range.prefix), "country": .plain(range.country),
                "sent": .plain(String(Int(window.sent.rounded()))), "verified": .plain(String(Int(window.verified.rounded()))),
                "baseline": .plain(String(format: "%.2f", baseline)), "until": .plain(ISO8601DateFormatter().string(from: until)),
            ])
    }

    /// Counts a verified code on its prefix and country, in the hour it was sent, once `db`'s
    /// transaction commits (``PendingCounts``).
    func countVerified(_ db: any DatabaseConnection, _ record: VerificationRecord, now: Date) {
        guard let prefix = record.destinationPrefix, let country = record.destinationCountry else { return }
        var counts = HeldCounts(codes: .init(sent: 0, verified: 1))
        counts.conversion = (record.applicationId, PhoneRange(prefix: prefix, country: country, digits: prefix), ConversionCounts.hourStart(record.createdAt))
        // A code of the last minutes also leaves the guard's count of unjudged codes.
        if now.timeIntervalSince(record.createdAt) < Self.judgementDelay + 2 * RecentCounts.width {
            counts.recent = (record.applicationId, prefix, RecentCounts.bucketStart(record.createdAt))
        }
        db.afterCommit { [pendingCounts] in pendingCounts.add(counts) }
    }
}

/// Where a code to a phone goes, as the pumping guard counts it: the number's prefix
/// (``PhoneNumber/prefix``) and its country (ISO code, or `+800` and the like for
/// non-geographic numbers).
struct PhoneRange: Sendable, Equatable {
    let prefix: String
    let country: String
    /// The whole number's digits.
    let digits: String

    init(prefix: String, country: String, digits: String) {
        self.prefix = prefix
        self.country = country
        self.digits = digits
    }

    /// Nil for email. Digits libphonenumber cannot read (an unassigned country code) still
    /// count, under their first five digits and the country `ZZ`, so they cannot slip past
    /// the budgets and blocks.
    init?(destination: String, channel: VerificationChannel) {
        self.init(ValidStart(destination: destination, channel: channel, languages: [], appHash: nil, autofill: nil, templateGroup: nil, custom: nil))
    }

    /// The range of a start, from the number it parsed once.
    init?(_ valid: ValidStart) {
        guard valid.channel != .email else { return nil }
        digits = valid.destination
        if let number = valid.number {
            prefix = number.prefix
            country = number.region ?? "+\(number.countryCode)"
        } else {
            prefix = String(valid.destination.prefix(5))
            country = "ZZ"
        }
    }

    /// Every prefix a block may name that this number falls in: its first 1 to 12 digits.
    var leadingPrefixes: [String] {
        (1...max(1, min(12, digits.count))).map { String(digits.prefix($0)) }
    }
}

/// What ``VerificationEngine/sendBlock(_:app:range:)`` read: the tenant's pins and the
/// application's blocks on the prefixes a number falls in (and the tenant's balance parts,
/// which ``VerificationEngine/balance(_:)`` reads from ``sent``).
struct SentBlocks {
    struct Line {
        /// `pin` (the tenant's) or `block` (the application's).
        let source: String
        let prefix: String
        let blockedUntil: Date?
        let liftedAt: Date?

        /// Holding codes back at `now`: not lifted, and pinned or not yet ended.
        func holds(at now: Date) -> Bool { liftedAt == nil && blockedUntil.map { $0 > now } ?? true }
    }

    let sent: SentStatement
    /// The prefix the guard counts and blocks (``PhoneRange/prefix``).
    let prefix: String

    /// The pins and blocks (not the balance parts that may share the statement).
    func rows() throws -> [Line] {
        try sent.rows().compactMap {
            let source: String = try $0.get("source")
            guard source == "pin" || source == "block" else { return nil }
            return Line(source: source, prefix: try $0.get("prefix"), blockedUntil: try $0.get("blocked_until"), liftedAt: try $0.get("lifted_at"))
        }
    }

    /// True when the guard's own prefix is blocked now, or an operator lifted its block less
    /// than an hour ago (the guard then waits for an hour of fresh counts).
    func guardHolds(now: Date) throws -> Bool {
        guard let line = try rows().first(where: { $0.source == "block" && $0.prefix == prefix }) else { return false }
        if let lifted = line.liftedAt { return now.timeIntervalSince(lifted) < 3600 }
        return line.holds(at: now)
    }
}
