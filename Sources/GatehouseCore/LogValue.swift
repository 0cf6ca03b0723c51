import GatehouseFormats

/// Text on its way to the log, in parts that are masked or kept.
///
/// Anything a request brought in or an error describes may hold a phone number or a code, so
/// it is masked by `Redactor`. What the server made itself and is no secret (the request id a
/// client was given, the port it listens on, its own ids) is marked `plain` and kept, so a line
/// can be found by it. Literal text of an interpolation is the server's own and kept; each
/// interpolated value is masked unless written `\(plain: value)`:
///
/// ```swift
/// logger.error("unhandled error in request \(plain: context.requestID): \(error)")
/// logger.info("listening", ["address": .plain("http://\(host):\(port)")])
/// ```
public struct LogValue: Sendable, Equatable, ExpressibleByStringInterpolation {
    enum Part: Sendable, Equatable {
        case masked(String)
        case plain(String)
    }

    var parts: [Part]

    /// Text that may hold a secret: masked.
    public init(_ text: String) { parts = [.masked(text)] }

    /// A value the server generated and that is no secret: kept as it is.
    public static func plain(_ text: String) -> LogValue { LogValue(parts: [.plain(text)]) }

    init(parts: [Part]) { self.parts = parts }

    public init(stringLiteral value: String) { parts = [.plain(value)] }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// The two, one after the other, each part marked as it was.
    public static func + (lhs: LogValue, rhs: LogValue) -> LogValue { LogValue(parts: lhs.parts + rhs.parts) }

    /// The text as it is written to the log.
    public var rendered: String {
        parts.map { part in
            switch part {
            case .masked(let text): Redactor.redact(text)
            case .plain(let text): text
            }
        }.joined()
    }

    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { parts.append(.plain(literal)) }

        /// Masked: the value may carry a number or a code.
        public mutating func appendInterpolation<T>(_ value: T) { parts.append(.masked(String(describing: value))) }

        /// Kept: a value the server generated that is no secret.
        public mutating func appendInterpolation<T>(plain value: T) { parts.append(.plain(String(describing: value))) }

        /// Another log value, its parts kept as they were marked.
        public mutating func appendInterpolation(_ value: LogValue) { parts += value.parts }
    }
}
