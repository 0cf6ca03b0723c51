import Foundation

/// RFC 3339 timestamps in UTC with milliseconds, as every Gatehouse API writes them.
public enum WireDate {
    /// `2026-01-01T00:00:00.000Z`. Written by arithmetic: a new `ISO8601DateFormatter` per
    /// call (they are not safe to share on every platform) cost a third of a status read.
    public static func string(_ date: Date) -> String {
        format(date, fractionalSeconds: true)
    }

    /// `2026-01-01T00:00:00Z`: whole seconds, rounded down.
    public static func seconds(_ date: Date) -> String {
        format(date, fractionalSeconds: false)
    }

    /// Parses with or without fractional seconds.
    public static func parse(_ text: String) -> Date? {
        if let date = formatter().date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: text)
    }

    // ISO8601DateFormatter is not safe to share across threads on every platform.
    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    static func format(_ date: Date, fractionalSeconds: Bool) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, milli) = floorDivide(millis, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fractionalSeconds { text += "." + pad(milli, 3) }
        return text + "Z"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's
    /// `civil_from_days`, http://howardhinnant.github.io/date_algorithms.html).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
