/// A statement handed to the database by ``DatabaseConnection/send(_:_:)``, whose answer is
/// read when it is first asked for.
///
/// On PostgreSQL the statements sent this way travel to the server with the next statement
/// that waits for its answer (or the commit), in one round trip; on SQLite a statement runs
/// as it is sent, so its answer is already here. Like the connection it belongs to, it is
/// used by one transaction on one thread, and not after the transaction's closure returns.
public final class SentStatement {
    private enum State {
        case waiting
        case answered(rows: [Row], changes: Int)
        case failed(any Error)
    }

    private var state = State.waiting
    /// Reads the answers of everything sent so far, this statement's among them.
    private let settle: () throws -> Void

    /// A statement whose answer the connection will hand over through `answer` or `fail`;
    /// `settle` makes it do so.
    package init(settle: @escaping () throws -> Void) {
        self.settle = settle
    }

    /// A statement already answered (a driver that runs statements as they are sent).
    package init(rows: [Row], changes: Int) {
        state = .answered(rows: rows, changes: changes)
        settle = {}
    }

    /// The rows the statement returned; throws its error, if it failed.
    public func rows() throws -> [Row] {
        try answer().rows
    }

    /// How many rows the statement changed; throws its error, if it failed.
    public func changes() throws -> Int {
        try answer().changes
    }

    package func answer(rows: [Row], changes: Int) {
        state = .answered(rows: rows, changes: changes)
    }

    package func fail(_ error: any Error) {
        state = .failed(error)
    }

    package var isWaiting: Bool {
        if case .waiting = state { return true }
        return false
    }

    private func answer() throws -> (rows: [Row], changes: Int) {
        if case .waiting = state { try settle() }
        switch state {
        case .answered(let rows, let changes): return (rows, changes)
        case .failed(let error): throw error
        // A settle that returned without answering this statement: the connection went away
        // under it (its own error was thrown to whoever settled first).
        case .waiting: throw DatabaseError(kind: .connection, code: "08006", message: "the statement's answer never came")
        }
    }
}
