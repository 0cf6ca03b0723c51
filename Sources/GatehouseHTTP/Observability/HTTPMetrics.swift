import Foundation

// Safe: `series` is only read and written under `lock`; `family`, `routeLabel` and `help` are immutable `let`s.
/// Request counts and latency histograms by method, route template and status,
/// rendered in the Prometheus text format. The server's own requests are one family; other
/// request kinds (calls a proxy makes upstream) are families of their own.
public final class HTTPMetrics: @unchecked Sendable {
    struct Key: Hashable { let method: String; let route: String; let status: Int }
    struct Series {
        var buckets: [UInt64]
        var count: UInt64 = 0
        var sum: Double = 0
        mutating func record(_ bucket: Int, _ seconds: Double) {
            buckets[bucket] += 1
            count += 1
            sum += seconds
        }
    }

    /// Upper bounds in seconds.
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private let lock = NSLock()
    private var series: [Key: Series] = [:]

    /// Names the series `<family>s_total` and `<family>_duration_seconds`.
    private let family: String
    private let routeLabel: String
    private let help: (requests: String, duration: String)

    /// The server's request metrics (`gatehouse_http_request…`, label `route`).
    public convenience init() {
        self.init(family: "gatehouse_http_request", routeLabel: "route", help: ("HTTP requests answered.", "Time from request head to response queued."))
    }

    /// A family of its own: `routeLabel` names what `route` holds in this family.
    public init(family: String, routeLabel: String, help: (requests: String, duration: String)) {
        self.family = family
        self.routeLabel = routeLabel
        self.help = help
    }

    /// Counts one request of `route` that ended with `status` after `seconds`.
    public func record(method: HTTPMethod, route: String, status: Int, seconds: Double) {
        let key = Key(method: method.rawValue, route: route, status: status)
        let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        lock.lock()
        // Mutated in place: copying the entry out would copy its bucket array every request.
        series[key, default: Series(buckets: Array(repeating: 0, count: Self.bounds.count + 1))].record(bucket, seconds)
        lock.unlock()
    }

    /// How many requests matched a route, by status; for tests and the admin API.
    public func count(route: String, status: Int? = nil) -> UInt64 {
        lock.withLock { series.filter { $0.key.route == route && (status == nil || $0.key.status == status) }.reduce(0) { $0 + $1.value.count } }
    }

    /// The Prometheus exposition text.
    public func render() -> String {
        let snapshot = lock.withLock { series }
        let keys = snapshot.keys.sorted { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }
        var out = "# HELP \(family)s_total \(help.requests)\n# TYPE \(family)s_total counter\n"
        for key in keys {
            out += "\(family)s_total{\(labels(key))} \(snapshot[key]!.count)\n"
        }
        out += "# HELP \(family)_duration_seconds \(help.duration)\n"
        out += "# TYPE \(family)_duration_seconds histogram\n"
        for key in keys {
            let entry = snapshot[key]!
            var cumulative: UInt64 = 0
            for (index, bound) in Self.bounds.enumerated() {
                cumulative += entry.buckets[index]
                out += "\(family)_duration_seconds_bucket{\(labels(key)),le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "\(family)_duration_seconds_bucket{\(labels(key)),le=\"+Inf\"} \(entry.count)\n"
            out += "\(family)_duration_seconds_sum{\(labels(key))} \(entry.sum)\n"
            out += "\(family)_duration_seconds_count{\(labels(key))} \(entry.count)\n"
        }
        return out
    }

    private func labels(_ key: Key) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
        return "method=\"\(escape(key.method))\",\(routeLabel)=\"\(escape(key.route))\",status=\"\(key.status)\""
    }
}
