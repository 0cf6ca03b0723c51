import Synchronization

/// Counts the round trips the connections of one ``PostgresDatabase`` made to the server:
/// what the pipeline saves is seen in tests and benchmarks, not assumed.
final class PostgresRoundTrips: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add() {
        count.add(1, ordering: .relaxed)
    }
}
