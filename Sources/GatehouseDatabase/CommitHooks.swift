/// What a transaction asked to run once it commits (``DatabaseConnection/afterCommit(_:)``),
/// held by the connection that runs it. Not thread-safe: a connection serves one
/// transaction at a time.
package final class CommitHooks {
    private var hooks: [() -> Void] = []

    package init() {}

    /// Where the hooks of the work about to run begin (see ``discard(from:)``).
    package var mark: Int { hooks.count }

    package func add(_ work: @escaping () -> Void) {
        hooks.append(work)
    }

    /// Forgets the hooks added since `mark`: their work was rolled back.
    package func discard(from mark: Int = 0) {
        hooks.removeSubrange(min(mark, hooks.count)...)
    }

    /// Runs the hooks in the order they were added, once the transaction has committed.
    package func run() {
        let due = hooks
        hooks.removeAll()
        due.forEach { $0() }
    }
}
