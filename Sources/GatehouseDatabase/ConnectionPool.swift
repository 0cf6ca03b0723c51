import Foundation

// Safe: `idle`, `opened` and `isClosed` are only read and written under `condition`, so a connection is held either by
// the pool or by the one borrower that checked it out; `open`, `isUsable` and `discard` are `let` closures, called from
// any thread, that the drivers build from Sendable captures only (a URL or path, a timeout, the schema counter).
/// A bounded set of driver connections that callers borrow one at a time.
///
/// Connections open lazily up to `capacity`; when all are borrowed, `checkout` blocks the
/// calling thread until one comes back, which bounds the load a process puts on its database.
/// Drivers use it for SQLite readers, the SQLite writer (capacity 1 makes it the write lock)
/// and PostgreSQL connections. It is shared by the drivers only, hence `package` access.
package final class ConnectionPool<Connection: AnyObject>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private let open: () throws -> Connection
    private let isUsable: (Connection) -> Bool
    private let discard: (Connection) -> Void
    // Guarded by `condition`.
    private var idle: [Connection]
    private var opened: Int
    private var isClosed = false
    /// Borrowers blocked in `checkout`: while any wait, `checkoutIdle` lends nothing, so a
    /// connection coming back goes to them, not to a caller that just arrived.
    private var waiting = 0

    /// - Parameters:
    ///   - capacity: the most connections open at once.
    ///   - initial: connections already open (counted against `capacity`).
    ///   - open: opens a new connection; called without the pool's lock held.
    ///   - isUsable: a cheap local check run before lending an idle connection.
    ///   - discard: closes a connection that leaves the pool.
    package init(
        capacity: Int,
        initial: [Connection] = [],
        open: @escaping () throws -> Connection,
        isUsable: @escaping (Connection) -> Bool = { _ in true },
        discard: @escaping (Connection) -> Void
    ) {
        precondition(capacity >= 1 && initial.count <= capacity, "pool capacity must cover its initial connections")
        self.capacity = capacity
        self.idle = initial
        self.opened = initial.count
        self.open = open
        self.isUsable = isUsable
        self.discard = discard
    }

    /// Lends a connection to `body` and takes it back afterwards; `keep` decides whether
    /// it goes back to the pool or is closed (a broken connection must not be lent again).
    package func withConnection<T>(
        keep: (Connection) -> Bool = { _ in true },
        _ body: (Connection) throws -> T
    ) throws -> T {
        let connection = try checkout()
        defer { checkin(connection, keep: keep(connection)) }
        return try body(connection)
    }

    /// Lends an idle connection to `body` if one is ready now and nobody is waiting for one
    /// (nil otherwise: nothing is opened and nothing waited for), and takes it back afterwards.
    package func withIdleConnection<T>(keep: (Connection) -> Bool = { _ in true }, _ body: (Connection) throws -> T) throws -> T? {
        guard let connection = checkoutIdle() else { return nil }
        defer { checkin(connection, keep: keep(connection)) }
        return try body(connection)
    }

    private func checkoutIdle() -> Connection? {
        condition.lock()
        defer { condition.unlock() }
        guard waiting == 0 else { return nil }
        while !isClosed, let connection = idle.popLast() {
            if isUsable(connection) { return connection }
            opened -= 1
            discard(connection)
        }
        return nil
    }

    /// Borrows a connection, blocking while all `capacity` connections are lent out.
    package func checkout() throws -> Connection {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw DatabaseError.closed
            }
            if let connection = idle.popLast() {
                if isUsable(connection) {
                    condition.unlock()
                    return connection
                }
                opened -= 1
                discard(connection)
                continue
            }
            if opened < capacity {
                opened += 1
                condition.unlock()
                return try openReservedSlot()
            }
            waiting += 1
            condition.wait()
            waiting -= 1
        }
    }

    /// Returns a borrowed connection; `keep: false` closes it and frees its slot.
    package func checkin(_ connection: Connection, keep: Bool = true) {
        condition.lock()
        defer { condition.unlock() }
        if keep && !isClosed {
            idle.append(connection)
        } else {
            opened -= 1
            discard(connection)
        }
        condition.signal()
    }

    /// Closes a borrowed connection and opens a fresh one in its slot, without waiting
    /// behind other borrowers: the caller already holds the slot.
    package func replace(_ connection: Connection) throws -> Connection {
        discard(connection)
        condition.lock()
        if isClosed {
            opened -= 1
            condition.signal()
            condition.unlock()
            throw DatabaseError.closed
        }
        condition.unlock()
        return try openReservedSlot()
    }

    /// Closes idle connections now and borrowed ones as they come back; later checkouts
    /// throw `DatabaseError.closed`.
    package func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        idle.removeAll()
        opened -= closing.count
        condition.broadcast()
        condition.unlock()
        closing.forEach(discard)
    }

    /// Opens a connection for a slot already counted in `opened`, giving the slot back if
    /// opening fails so a database outage does not shrink the pool for good.
    private func openReservedSlot() throws -> Connection {
        do {
            return try open()
        } catch {
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }
}
