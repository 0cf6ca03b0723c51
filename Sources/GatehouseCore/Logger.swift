import Foundation
import GatehouseFormats

/// Structured JSON-line logging. Every message and field passes through `Redactor`, so digit
/// runs that may be phone numbers or codes never reach the log, except the parts marked
/// `LogValue.plain`: values the server generated that are no secret (request ids, ports).
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        var name: String { ["debug", "info", "warning", "error"][rawValue] }
    }

    private let minimum: Level
    private let write: @Sendable (String) -> Void
    private let clock: any Clock

    public init(minimum: Level = .info, clock: any Clock = SystemClock(), write: @escaping @Sendable (String) -> Void) {
        self.minimum = minimum
        self.clock = clock
        self.write = write
    }

    /// One line of sorted keys; `JSONEncoder` is thread-safe and several times cheaper than
    /// `JSONSerialization` on Linux.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Drops everything; for tools and tests that do not care.
    public static let silent = Logger(minimum: .error, write: { _ in })

    /// Writes one line; each part of the message and the fields is masked or kept as its
    /// `LogValue` says.
    public func log(_ level: Level, _ message: LogValue, _ fields: [String: LogValue] = [:]) {
        guard level >= minimum else { return }
        var entry: [String: String] = ["level": level.name, "message": message.rendered]
        for (key, value) in fields { entry[key] = value.rendered }
        entry["ts"] = WireDate.string(clock.now)
        guard let data = try? Self.encoder.encode(entry) else { return }
        write(String(decoding: data, as: UTF8.self))
    }

    /// Writes one line with the message and every field masked.
    public func log(_ level: Level, _ message: String, _ fields: [String: String] = [:]) {
        log(level, LogValue(message), fields.mapValues { LogValue($0) })
    }

    public func debug(_ message: String, _ fields: [String: String] = [:]) { log(.debug, message, fields) }
    public func info(_ message: String, _ fields: [String: String] = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: [String: String] = [:]) { log(.warning, message, fields) }
    public func error(_ message: String, _ fields: [String: String] = [:]) { log(.error, message, fields) }

    public func debug(_ message: LogValue, _ fields: [String: LogValue] = [:]) { log(.debug, message, fields) }
    public func info(_ message: LogValue, _ fields: [String: LogValue] = [:]) { log(.info, message, fields) }
    public func warning(_ message: LogValue, _ fields: [String: LogValue] = [:]) { log(.warning, message, fields) }
    public func error(_ message: LogValue, _ fields: [String: LogValue] = [:]) { log(.error, message, fields) }
}
