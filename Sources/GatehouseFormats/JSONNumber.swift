/// A JSON number: its value as a `Double`, and the text it was written as when it was read
/// from JSON, so that an integer field reads exactly (`0.9999999999999999999` is 1 as a
/// `Double` but no integer, and `9223372036854775808` is past 64 bits, not rounded to them).
/// Two numbers are equal when their values are.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    public let double: Double
    /// The text as written, when read from JSON.
    public let text: String?

    public init(_ double: Double) {
        self.double = double
        text = nil
    }

    public init(_ integer: Int) {
        double = Double(integer)
        text = String(integer)
    }

    /// A number read from JSON: `text` is valid RFC 8259 number syntax for `double`.
    init(text: String, double: Double) {
        self.double = double
        self.text = text
    }

    /// The integer this number is, exactly; nil for a fraction or one outside `Int`.
    public var exactInteger: Int? {
        if let text { return JSONInteger.exact(text) }
        guard double == double.rounded(), abs(double) < 0x1p63 else { return nil }
        return Int(double)
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool { lhs.double == rhs.double }
    public func hash(into hasher: inout Hasher) { hasher.combine(double) }
    public var description: String { text ?? String(double) }
}
