import Foundation

/// The timestamps the dialects write, all in UTC: RFC 3339 with milliseconds (Gatehouse,
/// Datacove), whole seconds with `Z` (DIDWW) or with `+00:00` (SubscriptionFlow).
///
/// Written by hand from the civil date: a new `ISO8601DateFormatter` costs about 75 µs on
/// Linux and one may not be shared across threads, which made a formatter per reply the
/// largest cost of a read.
public enum WireDate {
    /// `2026-10-02T09:30:00.000Z`, milliseconds rounded as `ISO8601DateFormatter` rounds them.
    public static func string(_ date: Date) -> String {
        let (seconds, fraction) = floorDivision(milliseconds(date), 1000)
        return civil(seconds) + "." + padded(fraction, 3) + "Z"
    }

    /// `2026-10-02T09:30:00Z`, the fraction dropped.
    public static func seconds(_ date: Date) -> String {
        civil(Int64(date.timeIntervalSince1970.rounded(.down))) + "Z"
    }

    /// `2026-10-02T09:30:00+00:00`: rounded to the millisecond, then the fraction dropped,
    /// as `DateFormatter` does.
    public static func secondsWithOffset(_ date: Date) -> String {
        civil(floorDivision(milliseconds(date), 1000).quotient) + "+00:00"
    }

    /// Parses RFC 3339 with or without fractional seconds, with `Z` or an offset. Readers
    /// (the SDK) parse rarely; the formatter gives milliseconds exactly as they were written.
    public static func parse(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: text)
    }

    /// `YYYY-MM-DDTHH:MM:SS` of a count of seconds since 1970 (proleptic Gregorian, UTC).
    private static func civil(_ seconds: Int64) -> String {
        let time = CivilTime(secondsSince1970: seconds)
        let secondOfDay = time.secondOfDay
        return padded(time.year, 4) + "-" + padded(time.month, 2) + "-" + padded(time.day, 2) + "T" + padded(secondOfDay / 3600, 2) + ":"
            + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2)
    }

    /// Milliseconds since 1970, halves rounded up.
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down))
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        CivilTime.floorDivision(value, divisor)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String { CivilTime.padded(value, width) }
}
