import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseFormats

// Daily and monthly volume limits per application, in UTC calendar days and months, and
// the pumping budgets: codes to one prefix or one country per UTC hour and day.
//
// One counter row per application would be a queue every start of the application waits in,
// on every node. A period with a limit splits its count over `volumeShards` rows instead, and
// the limit with it: shard `i` may hold `limit / n` starts (the first `limit % n` shards one
// more), so the shards never add up to more than the limit while a start locks only the one
// shard it takes a slot from. A start tries a random shard first and moves on while shards are
// full; the limit is reached when every shard is. A count without a limit (the pumping budgets
// an operator has not set) decides nothing when it is made: it is kept in node memory
// (`PendingCounts`) and written in batches to a row of the node's own (`nodeShard`), so a
// start writes no row for it and no two nodes write the same one.
extension VerificationEngine {
    static let volumeShards = 8

    /// 429 once a period's count has reached its limit; counts nothing.
    static func sendVolume(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange?, now: Date) throws
        -> [(limit: VolumePeriods.Limit, count: SentStatement)]
    {
        try VolumePeriods(now).limits(of: app, range: range).filter { $0.cap != nil }.map { limit in
            (limit, try db.send("SELECT COALESCE(SUM(hits), 0) AS n FROM verification_volume_shards WHERE counter_key = ?", limit.key))
        }
    }

    static func judgeVolume(_ sent: [(limit: VolumePeriods.Limit, count: SentStatement)]) throws {
        for (limit, count) in sent {
            guard let cap = limit.cap else { continue }
            let hits: Int = try count.rows().first?.get("n") ?? 0
            if hits >= cap { throw VerificationFailure(.volumeLimitReached, retryAfter: limit.retryAfter) }
        }
    }

    /// Takes one slot of each period in the start's transaction, or fails it with 429 when
    /// a period has none left (a start that raced the last one in `judgeVolume`). The periods
    /// without a limit are returned, for the start to count once it commits (``PendingCounts``).
    ///
    /// The pumping budgets of a range are counted with or without a cap, so a budget an
    /// operator sets during an attack already knows what went out that hour and day. (Starts
    /// racing the moment a cap is set may pass it by the starts counted uncapped meanwhile,
    /// by what other nodes have not flushed yet, and by a batch of this node's that a flush
    /// wrote between the start's read of the rows and its look at what the node holds.)
    func countVolume(_ db: any DatabaseConnection, app: OTPApplication, range: PhoneRange?, now: Date) throws -> [(key: String, end: Date)] {
        let limits = VolumePeriods(now).limits(of: app, range: range).filter { $0.cap != nil || $0.pumping }
        guard !limits.isEmpty else { return [] }
        let first = Int(environment.random.uniform(below: UInt64(Self.volumeShards)))
        for limit in limits {
            guard let cap = limit.cap else { continue }
            guard try takeSlot(db, limit, cap: cap, firstShard: first) else {
                throw VerificationFailure(.volumeLimitReached, retryAfter: limit.retryAfter)
            }
        }
        return limits.filter { $0.cap == nil }.map { ($0.key, $0.end) }
    }

    /// Takes a slot of a limited period. What was counted before the limit was set (on the
    /// nodes' own rows) comes off the limit first; the rest is split over the shards.
    private func takeSlot(_ db: any DatabaseConnection, _ limit: VolumePeriods.Limit, cap: Int, firstShard: Int) throws -> Bool {
        let uncapped: Int = try db.queryOne(
            "SELECT COALESCE(SUM(hits), 0) AS n FROM verification_volume_shards WHERE counter_key = ? AND shard >= ?",
            limit.key, Self.volumeShards)?.get("n") ?? 0
        let left = max(0, cap - uncapped - pendingCounts.hits(of: limit.key))
        for step in 0..<Self.volumeShards {
            let shard = (firstShard + step) % Self.volumeShards
            let room = left / Self.volumeShards + (shard < left % Self.volumeShards ? 1 : 0)
            guard room > 0 else { continue }
            if try Self.takeSlot(db, limit, shard: shard, room: room) { return true }
        }
        return false
    }

    /// Takes a slot of one shard when it has room. A full shard is passed over without
    /// locking its row: starts go round the shards from different places, so a start that
    /// kept the full rows it had looked at locked would wait on one that waits on it (an
    /// upsert's `DO UPDATE … WHERE` locks the row even when the condition fails; a plain
    /// `UPDATE` whose condition fails on the row's latest version does not). The period's
    /// first slot on a shard makes the row; a start that loses that race to another tries
    /// the row the other made.
    private static func takeSlot(_ db: any DatabaseConnection, _ limit: VolumePeriods.Limit, shard: Int, room: Int) throws -> Bool {
        let take = "UPDATE verification_volume_shards SET hits = hits + 1 WHERE counter_key = ? AND shard = ? AND hits < ?"
        let arguments: [SQLValue] = [.text(limit.key), .integer(Int64(shard)), .integer(Int64(room))]
        if try db.execute(take, arguments) == 1 { return true }
        let made = try db.execute(
            "INSERT INTO verification_volume_shards (counter_key, shard, hits, period_end) VALUES (?, ?, 1, ?) ON CONFLICT (counter_key, shard) DO NOTHING",
            [.text(limit.key), .integer(Int64(shard)), limit.end.sqlValue])
        if made == 1 { return true }
        return try db.execute(take, arguments) == 1
    }
}

/// The UTC day and month a moment falls in, as counter keys and deadlines.
struct VolumePeriods {
    struct Limit {
        let key: String
        let cap: Int?
        let end: Date
        let retryAfter: Int
        /// A prefix's or country's budget, counted even without a cap.
        var pumping = false
    }

    let hour: String
    let day: String
    let month: String
    let hourEnd: Date
    let dayEnd: Date
    let monthEnd: Date
    let now: Date

    init(_ now: Date) {
        let time = CivilTime(secondsSince1970: Int64(now.timeIntervalSince1970.rounded(.down)))
        let (year, month, day) = (CivilTime.padded(time.year, 4), CivilTime.padded(time.month, 2), CivilTime.padded(time.day, 2))
        hour = year + month + day + CivilTime.padded(time.hour, 2)
        self.day = year + month + day
        self.month = year + month
        let dayStart = time.daysSince1970 * 86_400
        hourEnd = Date(timeIntervalSince1970: Double(dayStart + (time.hour + 1) * 3600))
        dayEnd = Date(timeIntervalSince1970: Double(dayStart + 86_400))
        monthEnd = Date(timeIntervalSince1970: Double(time.nextMonthDays * 86_400))
        self.now = now
    }

    /// The application's limits, and with a phone `range` its budgets for the range.
    func limits(of app: OTPApplication, range: PhoneRange?) -> [Limit] {
        var limits = [
            Limit(key: "daily:\(app.id):\(day)", cap: app.dailyLimit, end: dayEnd, retryAfter: seconds(to: dayEnd)),
            Limit(key: "monthly:\(app.id):\(month)", cap: app.monthlyLimit, end: monthEnd, retryAfter: seconds(to: monthEnd)),
        ]
        if let range {
            limits += [
                Limit(key: "prefix-hourly:\(app.id):\(range.prefix):\(hour)", cap: app.prefixHourlyLimit, end: hourEnd, retryAfter: seconds(to: hourEnd), pumping: true),
                Limit(key: "prefix-daily:\(app.id):\(range.prefix):\(day)", cap: app.prefixDailyLimit, end: dayEnd, retryAfter: seconds(to: dayEnd), pumping: true),
                Limit(key: "country-hourly:\(app.id):\(range.country):\(hour)", cap: app.countryHourlyLimit, end: hourEnd, retryAfter: seconds(to: hourEnd), pumping: true),
                Limit(key: "country-daily:\(app.id):\(range.country):\(day)", cap: app.countryDailyLimit, end: dayEnd, retryAfter: seconds(to: dayEnd), pumping: true),
            ]
        }
        return limits
    }

    private func seconds(to end: Date) -> Int { max(1, Int(end.timeIntervalSince(now).rounded(.up))) }

    /// The end of a period named `yyyyMMdd` or `yyyyMM`.
    static func end(ofPeriod name: String) -> Date? {
        guard name.count == 8 || name.count == 6, let year = Int(name.prefix(4)), let month = Int(name.dropFirst(4).prefix(2)) else {
            return nil
        }
        let day = name.count == 8 ? Int(name.suffix(2)) : 1
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        return calendar.date(byAdding: name.count == 8 ? .day : .month, value: 1, to: start)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
