/// A moment's UTC calendar date and time of day, in the proleptic Gregorian calendar, and a
/// date's count of days since 1970: arithmetic (H. Hinnant's civil-date algorithms), since a
/// `Calendar` lookup costs microseconds on a request's path.
///
/// ```swift
/// let time = CivilTime(secondsSince1970: 1_790_933_400)   // 2026-10-02 09:30:00
/// CivilTime.days(year: 2026, month: 10, day: 2)          // 20_728
/// ```
public struct CivilTime: Equatable, Sendable {
    public let year: Int64
    /// 1 to 12.
    public let month: Int64
    /// 1 to 31.
    public let day: Int64
    /// Seconds since midnight, 0 to 86 399.
    public let secondOfDay: Int64
    /// Days since 1970-01-01 (negative before it).
    public let daysSince1970: Int64

    public init(secondsSince1970 seconds: Int64) {
        let days = Self.floorDivision(seconds, 86_400)
        daysSince1970 = days.quotient
        secondOfDay = days.remainder
        let shifted = days.quotient + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var hour: Int64 { secondOfDay / 3600 }

    /// Days since 1970 of a date; `month` 1 to 12 and `day` 1 to 31 (a day past the month's
    /// end counts on into the next).
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days since 1970 of the first day of the month after this one.
    public var nextMonthDays: Int64 {
        month == 12 ? Self.days(year: year + 1, month: 1, day: 1) : Self.days(year: year, month: month + 1, day: 1)
    }

    /// Quotient rounded down, and a remainder of the divisor's sign.
    public static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// `value` in decimal, zero-padded to `width` digits.
    public static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
