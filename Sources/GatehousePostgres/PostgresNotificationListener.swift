import CPostgres
import Foundation
import GatehouseDatabase

// Safe: `stopping`, `running` and `stopWaiters` are only read and written under `lock` (an NSCondition); the rest are
// `let` Strings, a TimeInterval and @Sendable closures. The libpq connection lives only in the listener thread's locals.
/// Receives `NOTIFY` messages on one channel over a dedicated libpq connection, on a thread
/// of its own (never the Swift concurrency pool: it waits on the socket).
///
/// ```swift
/// let listener = PostgresNotificationListener(url: url, channel: "gatehouse_cache",
///     received: { payload in caches.received(payload) }, connected: { caches.dropEverything() })
/// listener.start()
/// …
/// listener.stop()
/// ```
///
/// When the connection drops it reconnects, waiting longer after each failure (up to
/// `maxBackoff`), and calls `connected` again: notices sent while it was away are lost, so
/// whoever relies on them must assume anything changed. `connected` runs after `LISTEN`
/// took effect, so nothing committed after it returns is missed.
public final class PostgresNotificationListener: @unchecked Sendable {
    private let url: String
    private let channel: String
    private let received: @Sendable (String) -> Void
    private let connected: @Sendable () -> Void
    private let failed: @Sendable (String) -> Void
    private let maxBackoff: TimeInterval
    private let lock = NSCondition()
    // Guarded by `lock`.
    private var stopping = false
    private var running = false
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - channel: an identifier of lower-case letters, digits and `_` (it is sent unquoted).
    ///   - received: called with each notice's payload, on the listener's thread.
    ///   - connected: called on the listener's thread each time listening (re)starts.
    ///   - failed: told why a connection attempt or the connection failed (no secrets: the
    ///     URL is never part of the message).
    public init(
        url: String, channel: String, maxBackoff: TimeInterval = 5, received: @escaping @Sendable (String) -> Void,
        connected: @escaping @Sendable () -> Void = {}, failed: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        precondition(channel.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "channel must be a plain identifier")
        self.url = url
        self.channel = channel
        self.maxBackoff = maxBackoff
        self.received = received
        self.connected = connected
        self.failed = failed
    }

    /// Starts the listener's thread; it connects in the background.
    public func start() {
        lock.withLock {
            precondition(!running, "listener already started")
            running = true
            stopping = false
        }
        let thread = Thread { [self] in
            loop()
            let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                running = false
                lock.broadcast()
                defer { stopWaiters.removeAll() }
                return stopWaiters
            }
            waiters.forEach { $0.resume() }
        }
        thread.name = "gatehouse.postgres-listener"
        thread.start()
    }

    /// Stops listening and blocks until the thread has closed its connection (for threads
    /// outside the concurrency pool, such as a signal handler's).
    public func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
            while running { lock.wait() }
        }
    }

    /// Stops listening and waits, without blocking a thread, until the thread has closed its
    /// connection.
    public func stop() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                stopping = true
                lock.broadcast()
                if !running { return true }
                stopWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func loop() {
        var backoff = 0.1
        while !isStopping {
            if let connection = connect() {
                backoff = 0.1
                connected()
                listen(on: connection)
                PQfinish(connection)
            }
            // Wait before reconnecting; `stop()` wakes the wait at once.
            lock.withLock {
                if !stopping { _ = lock.wait(until: Date().addingTimeInterval(backoff)) }
            }
            backoff = min(maxBackoff, backoff * 2)
        }
    }

    /// A connection that has run `LISTEN`, or nil after reporting why not.
    private func connect() -> OpaquePointer? {
        guard let connection = PQconnectdb(url) else { return nil }
        guard PQstatus(connection) == CONNECTION_OK else {
            failed(PostgresSQLState.lastError(connection))
            PQfinish(connection)
            return nil
        }
        let result = PQexec(connection, "LISTEN \(channel)")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            failed(PostgresSQLState.lastError(connection))
            PQfinish(connection)
            return nil
        }
        return connection
    }

    /// Reads notices until the connection fails or `stop()` is called. The socket is polled
    /// with a short timeout so that a stop request is noticed promptly.
    private func listen(on connection: OpaquePointer) {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return }
        while !isStopping {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if ready < 0 && errno != EINTR { return failed("poll failed: errno \(errno)") }
            guard ready > 0 else { continue }
            guard PQconsumeInput(connection) == 1, PQstatus(connection) == CONNECTION_OK else {
                return failed(PostgresSQLState.lastError(connection))
            }
            while let notice = PQnotifies(connection) {
                let payload = String(cString: notice.pointee.extra)
                PQfreemem(notice)
                received(payload)
            }
        }
    }
}
