/// Amounts in millionths of a currency unit, so fees and balances add up exactly.
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
        return whole * 1_000_000 + fraction
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
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
