import GatehouseCore

/// Amounts in millionths of a currency unit, so fees and balances add up exactly.
///
/// Amounts are `Int64` and every sum is checked: an amount that would leave the 64-bit
/// range is `amount_out_of_range`, never a wrapped value, a PostgreSQL `bigint out of range`
/// or a SQLite REAL stored in an integer column.
public enum Money {
    /// Parses a non-negative decimal string such as `"0.06"` (at most 6 decimals).
    public static func micros(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 12,
            parts[0].allSatisfy(\.isASCIIDigit), let whole = Int64(parts[0])
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            fraction = Int64(digits + String(repeating: "0", count: 6 - digits.count))!
        }
        // At most 12 whole digits and 6 decimals: below 10^18, far inside Int64.
        return whole * 1_000_000 + fraction
    }

    /// Parses a signed decimal string such as `"-2.50"`.
    public static func signedMicros(_ text: String) -> Int64? {
        guard text.hasPrefix("-") else { return micros(text) }
        return micros(String(text.dropFirst())).map { -$0 }
    }

    /// Formats with at least two decimals and no trailing zeros beyond them: `"0.06"`, `"0.0345"`.
    public static func string(_ micros: Int64) -> String {
        let sign = micros < 0 ? "-" : ""
        let value = micros.magnitude
        var fraction = String(value % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 2, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(value / 1_000_000).\(fraction)"
    }

    /// `a + b`, or `amount_out_of_range` when the sum leaves `Int64`.
    public static func sum(_ a: Int64, _ b: Int64) throws -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        if overflow { throw outOfRange }
        return result
    }

    /// The values `x` for which `x + amount` stays inside `Int64`, computed without overflow.
    static func addableRange(_ amount: Int64) -> ClosedRange<Int64> {
        amount >= 0 ? Int64.min...(Int64.max - amount) : (Int64.min - amount)...Int64.max
    }

    static let outOfRange = CoreError(.amountOutOfRange, .balanceOutOfRange)
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
