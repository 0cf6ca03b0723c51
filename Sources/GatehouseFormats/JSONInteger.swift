/// A JSON number's text read as an integer exactly, never through a `Double`: `1.0`, `1e2` and
/// `100e-2` are 1, 100 and 1, while `0.9999999999999999999` (1 as a `Double`) and `1.5` are no
/// integer, and `9223372036854775808` is past 64 bits rather than rounded to them.
public enum JSONInteger {
    /// The integer `text` (valid RFC 8259 number syntax) stands for, or nil when it stands for
    /// a fraction or for an integer outside `Int`.
    public static func exact(_ text: String) -> Int? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        var exponent = 0
        if let e = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            let written = rest[rest.index(after: e)...]
            rest = rest[..<e]
            // All zeros is 0 whatever the exponent; otherwise a four-digit exponent is already
            // far past 64 bits, or far below 1.
            guard let value = Int(written.hasPrefix("+") ? written.dropFirst() : written), abs(value) < 10_000 else {
                return rest.allSatisfy { $0 == "0" || $0 == "." } ? 0 : nil
            }
            exponent = value
        }
        let point = rest.firstIndex(of: ".")
        let whole = point.map { rest[..<$0] } ?? rest
        // The value is 0.digits × 10^scale. Zeros are trimmed by index, so a long run of them
        // costs one pass, not one copy each.
        let all = Array(whole) + (point.map { Array(rest[rest.index(after: $0)...]) } ?? [])
        guard let first = all.firstIndex(where: { $0 != "0" }), let last = all.lastIndex(where: { $0 != "0" }) else { return 0 }
        let digits = all[first...last]
        let scale = whole.count + exponent - first
        // A fraction is left after the point, or the integer has more digits than 64 bits hold.
        guard digits.count <= scale, scale <= 19 else { return nil }
        return Int((negative ? "-" : "") + String(digits) + String(repeating: "0", count: scale - digits.count))
    }
}
