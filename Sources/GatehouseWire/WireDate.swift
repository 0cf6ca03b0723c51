import Foundation

/// RFC 3339 timestamps in UTC with milliseconds, as every Gatehouse API writes them.
public enum WireDate {
    public static func string(_ date: Date) -> String {
        formatter().string(from: date)
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
}
