import CMicroHTTPD
import Foundation

/// One connection as the deadline watch sees it. MHD keeps an unretained pointer to it in
/// the connection's socket context; the watch's table holds the reference.
final class WatchedConnection: @unchecked Sendable {
    let fd: Int32
    /// When the request head must have arrived, in uptime nanoseconds; 0 while none is due
    /// (a request is being read, handled or answered). Guarded by the watch's lock.
    var deadline: UInt64

    init(fd: Int32, deadline: UInt64) {
        self.fd = fd
        self.deadline = deadline
    }
}

/// Cuts connections whose request line and headers do not arrive within the timeout.
///
/// MHD's connection timeout measures only idleness: a client sending one header byte a
/// second is never idle, so a few such clients would hold every connection slot. MHD calls
/// the application only once a head is complete, so the deadline is watched from outside:
/// armed when a connection opens or finishes a request, disarmed when a head arrives, and
/// enforced by one thread that shuts the socket down, after which MHD closes the connection
/// on its own thread. A connection leaves the table (under the lock) before MHD closes its
/// socket, so a descriptor is never cut after it could have been reused.
final class HeadDeadlines: @unchecked Sendable {
    private let timeout: UInt64
    private let lock = NSLock()
    private var connections: [ObjectIdentifier: WatchedConnection] = [:]
    private var thread: Thread?
    private let stopped = NSCondition()
    private var isStopped = false

    init(timeoutSeconds: Int) {
        timeout = UInt64(max(1, timeoutSeconds)) * 1_000_000_000
    }

    func opened(fd: Int32) -> WatchedConnection {
        let connection = WatchedConnection(fd: fd, deadline: Self.now() + timeout)
        lock.withLock { connections[ObjectIdentifier(connection)] = connection }
        return connection
    }

    func headArrived(_ connection: WatchedConnection) {
        lock.withLock { connection.deadline = 0 }
    }

    /// The connection may carry another request: its head is due within the timeout.
    func requestFinished(_ connection: WatchedConnection) {
        let deadline = Self.now() + timeout
        lock.withLock { connection.deadline = deadline }
    }

    func closed(_ connection: WatchedConnection) {
        _ = lock.withLock { connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    func start() {
        let tick = useconds_t(min(250_000, max(20_000, timeout / 1_000 / 4)))
        let thread = Thread { [self] in
            stopped.lock()
            while !isStopped {
                stopped.unlock()
                cutOverdue()
                usleep(tick)
                stopped.lock()
            }
            stopped.unlock()
        }
        thread.name = "gatehouse-head-deadlines"
        thread.start()
        self.thread = thread
    }

    func stop() {
        stopped.lock()
        isStopped = true
        stopped.unlock()
    }

    private func cutOverdue() {
        let now = Self.now()
        lock.withLock {
            for connection in connections.values where connection.deadline != 0 && connection.deadline < now {
                connection.deadline = 0
                cmhd_cut(connection.fd)
            }
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
