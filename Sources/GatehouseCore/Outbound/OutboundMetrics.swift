import Foundation

// Safe: `series` is only read and written under `lock`.
/// Outbound calls by target kind and outcome (`2xx`…`5xx`, or the failure's code, or
/// `cancelled`): a count and a latency histogram, in the Prometheus text format.
public final class OutboundMetrics: @unchecked Sendable {
    struct Key: Hashable { let target: String; let outcome: String }
    struct Series {
        var buckets: [UInt64]
        var count: UInt64 = 0
        var sum: Double = 0
    }

    /// Upper bounds in seconds: outbound calls take longer than requests answered here.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
    private let lock = NSLock()
    private var series: [Key: Series] = [:]

    public init() {}

    /// Counts one call of `target` that ended with `outcome`, begun at `since` (uptime nanoseconds).
    public func record(_ target: OutboundTargetKind, outcome: String, since: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- since) / 1e9
        let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        lock.withLock {
            let key = Key(target: target.rawValue, outcome: outcome)
            series[key, default: Series(buckets: Array(repeating: 0, count: Self.bounds.count + 1))].buckets[bucket] += 1
            series[key]!.count += 1
            series[key]!.sum += seconds
        }
    }

    /// How many calls of `target` ended with `outcome` (any, when nil).
    public func count(_ target: OutboundTargetKind, outcome: String? = nil) -> UInt64 {
        lock.withLock { series.filter { $0.key.target == target.rawValue && (outcome == nil || $0.key.outcome == outcome) }.reduce(0) { $0 + $1.value.count } }
    }

    public func render() -> String {
        let snapshot = lock.withLock { series }
        let keys = snapshot.keys.sorted { ($0.target, $0.outcome) < ($1.target, $1.outcome) }
        let name = "gatehouse_outbound_request"
        var out = "# HELP \(name)s_total Calls the server made to other services, by target kind and outcome.\n# TYPE \(name)s_total counter\n"
        for key in keys { out += "\(name)s_total{\(labels(key))} \(snapshot[key]!.count)\n" }
        out += "# HELP \(name)_duration_seconds Time from sending to the call's end.\n# TYPE \(name)_duration_seconds histogram\n"
        for key in keys {
            let entry = snapshot[key]!
            var cumulative: UInt64 = 0
            for (index, bound) in Self.bounds.enumerated() {
                cumulative += entry.buckets[index]
                out += "\(name)_duration_seconds_bucket{\(labels(key)),le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "\(name)_duration_seconds_bucket{\(labels(key)),le=\"+Inf\"} \(entry.count)\n"
            out += "\(name)_duration_seconds_sum{\(labels(key))} \(entry.sum)\n\(name)_duration_seconds_count{\(labels(key))} \(entry.count)\n"
        }
        return out
    }

    private func labels(_ key: Key) -> String { "target=\"\(key.target)\",outcome=\"\(key.outcome)\"" }
}
