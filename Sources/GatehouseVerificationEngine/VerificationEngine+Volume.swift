import Foundation
import GatehouseCore
import GatehouseDatabase

// Daily and monthly volume limits per application, in UTC calendar days and months.
extension VerificationEngine {
    static func checkVolume(_ db: any DatabaseConnection, app: OTPApplication, now: Date) throws {
        let periods = Self.periods(now)
        if let limit = app.dailyLimit, try count(db, "verify:daily:\(app.id):\(periods.day)") >= limit {
            throw VerificationFailure(.volumeLimitReached, retryAfter: periods.secondsToNextDay)
        }
        if let limit = app.monthlyLimit, try count(db, "verify:monthly:\(app.id):\(periods.month)") >= limit {
            throw VerificationFailure(.volumeLimitReached, retryAfter: periods.secondsToNextMonth)
        }
    }

    func countVolume(_ db: any DatabaseConnection, app: OTPApplication, now: Date) throws {
        guard app.dailyLimit != nil || app.monthlyLimit != nil else { return }
        let periods = Self.periods(now)
        // The key names the period, so one long window per key is enough.
        let window: TimeInterval = 400 * 86_400
        _ = try RateCounter.hit(db, key: "verify:daily:\(app.id):\(periods.day)", now: Date(timeIntervalSince1970: 0), window: window)
        _ = try RateCounter.hit(db, key: "verify:monthly:\(app.id):\(periods.month)", now: Date(timeIntervalSince1970: 0), window: window)
    }

    private static func count(_ db: any DatabaseConnection, _ key: String) throws -> Int {
        try db.queryOne("SELECT hits FROM rate_counters WHERE counter_key = ?", key)?.get("hits") ?? 0
    }

    static func periods(_ now: Date) -> (day: String, month: String, secondsToNextDay: Int, secondsToNextMonth: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        let dayStart = calendar.date(from: parts)!
        let monthStart = calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: 1))!
        let nextDay = calendar.date(byAdding: .day, value: 1, to: dayStart)!
        let nextMonth = calendar.date(byAdding: .month, value: 1, to: monthStart)!
        let day = String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
        let month = String(format: "%04d%02d", parts.year!, parts.month!)
        return (
            day, month, max(1, Int(nextDay.timeIntervalSince(now).rounded(.up))), max(1, Int(nextMonth.timeIntervalSince(now).rounded(.up)))
        )
    }
}
