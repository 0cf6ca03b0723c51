import CMicroHTTPD
import Foundation

// Safe: `phase` is only read and written by ClientDeadlines under its `lock`; `fd` is an immutable `let`.
/// One connection as the deadline watch sees it. MHD keeps an unretained pointer to it in
/// the connection's socket context; the watch's table holds the reference. Every field is
/// guarded by the watch's lock.
final class WatchedConnection: @unchecked Sendable {
    enum Phase {
        /// Waiting for a request's line and headers, due by this uptime (nanoseconds).
        case head(due: UInt64)
        /// Reading a body that began at this uptime; `received` bytes so far.
        case body(since: UInt64, received: Int)
        /// A request is being handled or answered: nothing is due from the client.
        case busy
        /// Answered early and lingering: cut at this uptime, whatever the client does.
        case closing(due: UInt64)
    }

    let fd: Int32
    var phase: Phase

    init(fd: Int32, phase: Phase) {
        self.fd = fd
        self.phase = phase
    }
}

// Safe: `connections`, `isRunning` and every WatchedConnection's `phase` are only touched under `lock`; `timeout` and
// `minBytesPerSecond` are immutable `let`s.
/// Cuts connections whose client is too slow: a request head that has not arrived in full
/// within the timeout, or a body whose average rate, once the timeout has passed, is below
/// the minimum.
///
/// MHD's connection timeout measures only idleness: a client sending one byte a second is
/// never idle, so a few such clients would hold every connection slot. And MHD calls the
/// application only once a head is complete, and passes a chunked body only chunk by chunk,
/// so neither can be timed from inside a request. One thread watches every connection
/// instead and shuts a slow one's socket down, after which MHD closes the connection on its
/// own thread. A connection leaves the table (under the lock) before MHD closes its socket,
/// so a descriptor is never cut after it could have been reused.
final class ClientDeadlines: @unchecked Sendable {
    /// 0: no deadlines (MHD's own timeout of 0 means none either).
    private let timeout: UInt64
    private let minBytesPerSecond: Double
    private let lock = NSLock()
    private var connections: [ObjectIdentifier: WatchedConnection] = [:]
    private var isRunning = false

    init(timeoutSeconds: Int, minBodyBytesPerSecond: Int) {
        timeout = UInt64(max(0, timeoutSeconds)) * 1_000_000_000
        minBytesPerSecond = Double(max(0, minBodyBytesPerSecond))
    }

    func opened(fd: Int32) -> WatchedConnection {
        let connection = WatchedConnection(fd: fd, phase: .head(due: Self.now() + timeout))
        lock.withLock { connections[ObjectIdentifier(connection)] = connection }
        return connection
    }

    func headArrived(_ connection: WatchedConnection) {
        let now = Self.now()
        lock.withLock { connection.phase = .body(since: now, received: 0) }
    }

    func bodyReceived(_ connection: WatchedConnection, bytes: Int) {
        lock.withLock {
            if case .closing = connection.phase { return }
            if case .body(let since, let received) = connection.phase { connection.phase = .body(since: since, received: received + bytes) }
        }
    }

    /// The connection is cut at `due`, even if the client sends nothing more.
    func closing(_ connection: WatchedConnection, due: UInt64) {
        lock.withLock { connection.phase = .closing(due: due) }
    }

    func bodyComplete(_ connection: WatchedConnection) {
        lock.withLock { connection.phase = .busy }
    }

    /// The connection may carry another request: its head is due within the timeout.
    func requestFinished(_ connection: WatchedConnection) {
        let due = Self.now() + timeout
        lock.withLock { connection.phase = .head(due: due) }
    }

    func closed(_ connection: WatchedConnection) {
        _ = lock.withLock { connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    func start() {
        guard timeout > 0 else { return }
        let tick = useconds_t(min(250_000, max(20_000, timeout / 1_000 / 4)))
        lock.withLock { isRunning = true }
        let thread = Thread { [self] in
            while lock.withLock({ isRunning }) {
                cutOverdue()
                usleep(tick)
            }
        }
        thread.name = "gatehouse-deadlines"
        thread.start()
    }

    /// Ends the watch thread within one tick.
    func stop() {
        lock.withLock { isRunning = false }
    }

    private func cutOverdue() {
        let now = Self.now()
        lock.withLock {
            for connection in connections.values where isOverdue(connection.phase, now: now) {
                connection.phase = .busy
                cmhd_cut(connection.fd)
            }
        }
    }

    private func isOverdue(_ phase: WatchedConnection.Phase, now: UInt64) -> Bool {
        switch phase {
        case .head(let due), .closing(let due): return due < now
        case .body(let since, let received):
            guard now > since + timeout else { return false }
            return Double(received) < Double(now - since) / 1e9 * minBytesPerSecond
        case .busy: return false
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
