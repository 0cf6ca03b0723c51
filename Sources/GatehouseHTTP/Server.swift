import CMicroHTTPD
import Foundation

// Safe: `active`, `idleWaiters` (and the tracked exchanges' `task` and `stream`) are only touched under `lock`, the request counters
// and the stopping flag are C atomics (shim.h), and the other fields are `let`s of Sendable types, except `daemon` and
// `port`: written by `start()`, before the server is shared with request threads, and by `shutdown()`, after the last
// `start()`, under `shutdownLock` (overlapping shutdowns take turns; nothing else writes them).
/// The HTTP server: libmicrohttpd below, a `Responder` above.
///
/// ```swift
/// let server = Server(configuration: config, responder: Responder(router: router, errorLog: log))
/// try server.start()          // server.port is the bound port
/// server.shutdown()           // stop accepting, finish in-flight requests, stop
/// ```
public final class Server: @unchecked Sendable {
    public let configuration: ServerConfiguration
    public let responder: Responder
    public let metrics: HTTPMetrics
    let accessLog: AccessLog?
    let errorLog: @Sendable (TransportLogEntry) -> Void
    let addresses: ClientAddressResolver
    let clientDeadlines: ClientDeadlines

    private var daemon: OpaquePointer?
    private let lock = NSLock()
    /// Held through a whole `shutdown`.
    private let shutdownLock = NSLock()
    /// Set, under `shutdownLock`, by a shutdown that left MHD running because requests would
    /// not finish: later ones return at once instead of waiting all over again.
    private var abandoned = false
    /// [0] requests in flight, [1] requests begun (for request ids); atomics, because
    /// every request on every server thread touches them.
    private let counters: UnsafeMutablePointer<Int> = {
        let counters = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        counters.initialize(repeating: 0, count: 2)
        return counters
    }()
    private let idPrefix = String(UInt32.random(in: .min ... .max), radix: 16)
    /// Set once shutdown begins; read lock-free on every response.
    private let stoppingFlag: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()
    /// Exchanges that may suspend their connection (async handlers, streams): shutdown
    /// must wake each of them before MHD can stop.
    private var active: [ObjectIdentifier: Exchange] = [:]
    /// `idle()` callers, woken under `lock` by the request that leaves none in flight.
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    public init(
        configuration: ServerConfiguration, responder: Responder, metrics: HTTPMetrics = HTTPMetrics(),
        accessLog: AccessLog? = nil, errorLog: @escaping @Sendable (TransportLogEntry) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.responder = responder
        self.metrics = metrics
        self.accessLog = accessLog
        self.errorLog = errorLog
        self.addresses = ClientAddressResolver(trustedProxies: configuration.trustedProxies)
        self.clientDeadlines = ClientDeadlines(
            timeoutSeconds: configuration.connectionTimeout, minBodyBytesPerSecond: configuration.minBodyBytesPerSecond)
    }

    /// The bound port (useful when configured as 0); 0 before `start`.
    public private(set) var port: UInt16 = 0

    /// Requests read but not yet completed.
    public var inFlight: Int { cmhd_counter_get(counters) }

    /// Returns once the requests in flight have all ended (the count has come down to none): a
    /// handler that goes on after its client left (a cancelled call) has finished by then, so a
    /// test can look at what it did without polling.
    public func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = lock.withLock { () -> Bool in
                if inFlight == 0 { return true }
                idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Binds and starts serving on MHD's threads.
    public func start() throws {
        guard daemon == nil else { return }
        var address = try SocketAddress(host: configuration.host, port: configuration.port)
        let isIPv6: Int32 = address.isIPv6 ? 1 : 0
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var options: [MHD_OptionItem] = [
                option(MHD_OPTION.SOCK_ADDR, pointer: UnsafeMutableRawPointer(mutating: sockaddr)),
                option(MHD_OPTION.THREAD_POOL_SIZE, value: configuration.threads),
                option(MHD_OPTION.CONNECTION_LIMIT, value: configuration.maxConnections),
                option(MHD_OPTION.CONNECTION_TIMEOUT, value: configuration.connectionTimeout),
                // Room past the head limit, so that a head over it reaches `strictHead` and is refused
                // in the dialect's envelope; only one past twice the limit meets MHD's own 414/431.
                option(MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: configuration.maxHeaderSize * 2 + 16 * 1024),
                option(MHD_OPTION.URI_LOG_CALLBACK, value: cmhd_log_uri_callback()),
                option(MHD_OPTION.LISTEN_BACKLOG_SIZE, value: 1024),
                option(MHD_OPTION.UNESCAPE_CALLBACK, value: cmhd_keep_escapes_callback()),
                MHD_OptionItem(
                    option: MHD_OPTION.NOTIFY_COMPLETED,
                    value: unsafeBitCast(requestCompleted, to: Int.self),
                    ptr_value: Unmanaged.passUnretained(self).toOpaque()),
                MHD_OptionItem(
                    option: MHD_OPTION.NOTIFY_CONNECTION,
                    value: unsafeBitCast(connectionNotified, to: Int.self),
                    ptr_value: Unmanaged.passUnretained(self).toOpaque()),
                option(MHD_OPTION.END, value: 0),
            ]
            let flags = cmhd_flags(isIPv6)
            return cmhd_start(flags, configuration.port, accessHandler, Unmanaged.passUnretained(self).toOpaque(), &options)
        }
        guard let started else {
            // libmicrohttpd leaves bind's errno: the usual cause is another server on the port.
            let reason = errno == EADDRINUSE ? ": the address is in use (another server listens there)"
                : errno == EACCES ? ": permission denied (ports below 1024 need privileges)" : ""
            throw ServerError(message: "could not start HTTP server on \(configuration.host):\(configuration.port)\(reason)")
        }
        daemon = started
        port = cmhd_bound_port(started)
        clientDeadlines.start()
    }

    /// Stops accepting, waits up to the grace period for in-flight requests, then stops.
    /// `listenerClosed` hears, once new connections are refused, how many requests are still in flight.
    public func shutdown(grace: Double? = nil, listenerClosed: (_ inFlight: Int) -> Void = { _ in }) {
        // One shutdown at a time: a second caller waits for the first, then finds no daemon
        // (MHD aborts the process when one daemon is stopped twice).
        shutdownLock.lock()
        defer { shutdownLock.unlock() }
        guard let daemon, !abandoned else { return }
        cmhd_flag_set(stoppingFlag, 1)
        // New connections are refused at once. Not through `MHD_quiesce_daemon`: in
        // libmicrohttpd 0.9.75 it takes the listening socket out of each worker's epoll set
        // while that worker, awake, may be taking it out too, and whichever loses gets ENOENT
        // and aborts the process ("Failed to remove listen FD from epoll set"; a test stopping
        // servers while clients came and went saw it in half its runs). Instead the listening
        // socket is closed behind MHD's descriptor (`cmhd_close_listener`), which the kernel
        // takes out of every epoll set itself. Unquiesced, a worker takes it out only at its
        // connection limit or out of descriptors, which only an accept racing this very call
        // could reach: a node full to its last connection as it stops. When requests do not
        // finish (below), the placeholder's peer stays open with MHD's threads.
        let placeholderPeer = cmhd_close_listener(cmhd_listen_fd(daemon))
        // Only when no socket pair could be made (out of descriptors): quiesce after all.
        let listener = placeholderPeer >= 0 ? -1 : MHD_quiesce_daemon(daemon)
        if listener >= 0 { cmhd_stop_listening(listener) }
        listenerClosed(inFlight)
        waitForIdle(seconds: grace ?? configuration.shutdownGrace)
        // Past the grace period: end streams and cancel handlers so that every suspended
        // connection resumes; MHD refuses to stop while one is still suspended.
        for (stream, task) in lock.withLock({ active.values.map { ($0.stream, $0.task) } }) {
            stream?.finish(error: CancellationError())
            task?.cancel()
        }
        waitForIdle(seconds: 3)
        if inFlight > 0 {
            errorLog(TransportLogEntry("shutdown: \(inFlight) requests did not finish; leaving the listener shut without stopping MHD"))
            // MHD's threads still call back into this server: it must never be freed now.
            _ = Unmanaged.passRetained(self)
            abandoned = true
            return
        }
        MHD_stop_daemon(daemon)
        if listener >= 0 { close(listener) }
        if placeholderPeer >= 0 { close(placeholderPeer) }
        clientDeadlines.stop()
        self.daemon = nil
    }

    /// `shutdown` without blocking a concurrency thread, so in-flight handlers can finish: on a
    /// thread of its own, since on Linux `DispatchQueue.global()`'s threads are the
    /// concurrency pool's.
    public func stop(grace: Double? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.shutdown(grace: grace)
                continuation.resume()
            }
        }
    }

    private func waitForIdle(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while inFlight > 0, Date() < deadline {
            usleep(5_000)
        }
    }

    private func option(_ option: MHD_OPTION, value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: nil)
    }

    private func option(_ option: MHD_OPTION, pointer: UnsafeMutableRawPointer) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: 0, ptr_value: pointer)
    }

    /// Counts the request in and names it.
    func begin() -> (requestID: String, stopping: Bool) {
        _ = cmhd_counter_add(counters, 1)
        let number = cmhd_counter_add(counters + 1, 1)
        return (idPrefix + "-" + String(number, radix: 16), isStopping)
    }

    func track(_ exchange: Exchange) {
        lock.withLock {
            exchange.isTracked = true
            // While a connection may be suspended the server keeps itself: MHD aborts the
            // process when a daemon with a suspended connection is stopped, which a server
            // freed by its last owner would do in `deinit`.
            if active.updateValue(exchange, forKey: ObjectIdentifier(exchange)) == nil, active.count == 1 {
                _ = Unmanaged.passRetained(self)
            }
        }
    }

    /// Gives a tracked exchange the handles `shutdown` reaches for from another thread: its
    /// handler task or its stream, set under the lock that `shutdown` reads them under.
    func attach(_ exchange: Exchange, task: Task<Void, Never>? = nil, stream: StreamChannel? = nil) {
        lock.withLock {
            if let task { exchange.task = task }
            if let stream { exchange.stream = stream }
        }
    }

    func end(_ exchange: Exchange) {
        let lastActive = exchange.isTracked && lock.withLock {
            active.removeValue(forKey: ObjectIdentifier(exchange)) != nil && active.isEmpty
        }
        ended()
        if lastActive {
            // Let go of the server off MHD's thread: if that was its last owner, `deinit` stops
            // the daemon, which MHD's own threads cannot do (they would wait for themselves).
            let kept = Unmanaged.passUnretained(self)
            DispatchQueue.global().async { kept.release() }
        }
    }

    /// One request fewer in flight; the one that leaves none wakes the `idle()` callers.
    func ended() {
        // The lock is taken only by the request that leaves none in flight; an `idle()` that saw
        // one in flight has queued itself under the lock by then, or sees none.
        guard cmhd_counter_add(counters, -1) == 0 else { return }
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            defer { idleWaiters.removeAll() }
            return idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isStopping: Bool { cmhd_flag_get(stoppingFlag) != 0 }

    deinit {
        // A server dropped without `shutdown` would leave MHD's threads calling into freed memory.
        if let daemon {
            MHD_stop_daemon(daemon)
            clientDeadlines.stop()
        }
        stoppingFlag.deallocate()
        counters.deallocate()
    }
}

/// A failure to start or run the server.
public struct ServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
