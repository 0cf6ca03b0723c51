/// Markup built from trusted literals and escaped values: in `"<td>\(name)</td>" as HTML` the
/// literal parts are the program's own and `name`, a `String`, is escaped; only another `HTML`
/// goes in as it is. So no value reaches a page unescaped unless some code made it markup on
/// purpose (`HTML(trusted:)`), and one function escapes everything.
///
/// ```swift
/// let row: HTML = "<tr><td>\(tenant.name)</td><td>\(badge)</td></tr>"
/// ```
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var markup: String

    /// Markup the program wrote itself (never a value from outside).
    public init(trusted markup: String) { self.markup = markup }

    /// A value as text, escaped.
    public init(text: String) { markup = HTML.escape(text) }

    public init(stringLiteral literal: String) { markup = literal }

    public init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }

    public var description: String { markup }

    public static let empty = HTML(trusted: "")

    public static func + (left: HTML, right: HTML) -> HTML { HTML(trusted: left.markup + right.markup) }

    public static func += (left: inout HTML, right: HTML) { left.markup += right.markup }

    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""
        public init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity + 16 * interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { markup += literal }
        /// A value: escaped, for text and for quoted attribute values alike.
        public mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }
        public mutating func appendInterpolation(_ text: Substring) { markup += HTML.escape(String(text)) }
        public mutating func appendInterpolation<Number: BinaryInteger>(_ number: Number) { markup += String(number) }
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }
        public mutating func appendInterpolation(_ parts: [HTML]) { for part in parts { markup += part.markup } }
        public mutating func appendInterpolation(_ html: HTML?) { markup += html?.markup ?? "" }
    }
}

extension Array where Element == HTML {
    /// The parts one after another.
    public func joined() -> HTML { HTML(trusted: map(\.markup).joined()) }
}
