import Foundation

// Safe: `counts` is only read and written under `lock`; `name` and `help` are immutable `let`s.
/// A Prometheus counter family kept in this node's memory (`name{label="…"} n`), for events
/// an engine counts that are not requests: uses of test numbers, delivery receipts.
public final class Counters: @unchecked Sendable {
    public let name: String
    public let help: String
    private let lock = NSLock()
    private var counts: [[String: String]: Int] = [:]

    public init(name: String, help: String) {
        self.name = name
        self.help = help
    }

    public func increment(_ labels: [String: String] = [:]) { lock.withLock { counts[labels, default: 0] += 1 } }

    /// The count for exactly these labels.
    public func value(_ labels: [String: String] = [:]) -> Int { lock.withLock { counts[labels] ?? 0 } }

    /// The family in the Prometheus text format, series in a stable order.
    public func render() -> String {
        let series = lock.withLock { counts }.map { labels, count -> String in
            let text = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(Self.escaped($0.value))\"" }.joined(separator: ",")
            return "\(name)\(text.isEmpty ? "" : "{\(text)}") \(count)\n"
        }.sorted()
        return "# HELP \(name) \(help)\n# TYPE \(name) counter\n" + series.joined()
    }

    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
