import Foundation

/// Request counts and latency histograms by method, route template and status,
/// rendered in the Prometheus text format.
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

    public init() {}

    func record(method: HTTPMethod, route: String, status: Int, seconds: Double) {
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
        var out = "# HELP gatehouse_http_requests_total HTTP requests answered.\n# TYPE gatehouse_http_requests_total counter\n"
        for key in keys {
            out += "gatehouse_http_requests_total{\(labels(key))} \(snapshot[key]!.count)\n"
        }
        out += "# HELP gatehouse_http_request_duration_seconds Time from request head to response queued.\n"
        out += "# TYPE gatehouse_http_request_duration_seconds histogram\n"
        for key in keys {
            let entry = snapshot[key]!
            var cumulative: UInt64 = 0
            for (index, bound) in Self.bounds.enumerated() {
                cumulative += entry.buckets[index]
                out += "gatehouse_http_request_duration_seconds_bucket{\(labels(key)),le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "gatehouse_http_request_duration_seconds_bucket{\(labels(key)),le=\"+Inf\"} \(entry.count)\n"
            out += "gatehouse_http_request_duration_seconds_sum{\(labels(key))} \(entry.sum)\n"
            out += "gatehouse_http_request_duration_seconds_count{\(labels(key))} \(entry.count)\n"
        }
        return out
    }

    private func labels(_ key: Key) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
        return "method=\"\(escape(key.method))\",route=\"\(escape(key.route))\",status=\"\(key.status)\""
    }
}
