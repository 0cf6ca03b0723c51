import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The class has its own `connect` and `close`, so the C functions get unambiguous names.
#if canImport(Glibc)
private let posixConnect = Glibc.connect
private let posixClose = Glibc.close
private let streamSocket = Int32(SOCK_STREAM.rawValue)
// A server that hangs up must become an error on write, not a SIGPIPE that kills the process.
private let sendFlags = Int32(MSG_NOSIGNAL)
#else
private let posixConnect = Darwin.connect
private let posixClose = Darwin.close
private let streamSocket = SOCK_STREAM
private let sendFlags: Int32 = 0  // Darwin has no MSG_NOSIGNAL; SO_NOSIGPIPE is set on the socket
#endif

/// A byte stream to an SMTP server. The conversation only sees this, so a TLS stream can
/// stand in for the plain socket without the protocol code changing.
protocol SMTPTransport: AnyObject {
    /// Sends all of `bytes` or throws.
    func write(_ bytes: [UInt8]) throws
    /// The next line the server sent, without its line ending.
    func readLine() throws -> String
    /// Releases the connection; safe to call more than once.
    func close()
}

/// The bytes received but not yet returned as lines; shared by the plain and the TLS transport
/// so both split and bound lines the same way.
struct SMTPLineBuffer {
    /// RFC 5321 §4.5.3.1.5 caps reply lines at 512 octets; the slack tolerates chatty servers
    /// while still stopping one that streams bytes without a line end from filling memory.
    static let maximumLineLength = 8192

    var bytes: [UInt8] = []

    /// The next complete line without its line ending, or nil when more bytes are needed.
    mutating func nextLine(peer: String) throws -> String? {
        if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(bytes[..<newline])
            bytes.removeSubrange(...newline)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            return String(decoding: line, as: UTF8.self)
        }
        guard bytes.count <= Self.maximumLineLength else {
            throw DeliveryError("SMTP server \(peer) sent a line longer than \(Self.maximumLineLength) bytes")
        }
        return nil
    }
}

/// A plain TCP connection over POSIX sockets. Every wait (connect, read, write) is bounded by
/// `timeout`, and all of them together by `until`, measured on the monotonic clock: a timeout
/// is real elapsed time, so it must not follow the injected (possibly manual) clock.
final class TCPTransport: SMTPTransport {
    private var fd: Int32
    let timeout: TimeInterval
    /// The end of the whole conversation (monotonic nanoseconds), however many steps are left.
    let until: UInt64
    let peer: String
    private var buffer = SMTPLineBuffer()

    /// True when the server sent bytes that no `readLine` has returned yet. After STARTTLS
    /// such bytes were sent in plain text before the handshake and must not be trusted.
    var hasBufferedInput: Bool { !buffer.bytes.isEmpty }

    private init(fd: Int32, timeout: TimeInterval, until: UInt64, peer: String) {
        self.fd = fd
        self.timeout = timeout
        self.until = until
        self.peer = peer
    }

    deinit { close() }

    /// Resolves `host` and connects to the first address that answers within `timeout`.
    static func connect(host: String, port: UInt16, timeout: TimeInterval, until: UInt64 = .max) throws -> TCPTransport {
        let peer = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw DeliveryError("SMTP server \(peer) could not be resolved: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            do {
                let fd = try connectOne(info.pointee, deadline: min(deadline(after: timeout), until))
                return TCPTransport(fd: fd, timeout: timeout, until: until, peer: peer)
            } catch let error as DeliveryError {
                lastError = error.description
            }
        }
        throw DeliveryError("SMTP connect to \(peer) failed: \(lastError)")
    }

    /// A non-blocking connect followed by a poll, because a blocking `connect` to a host that
    /// drops packets would wait for the kernel's own timeout (minutes), not ours.
    private static func connectOne(_ info: addrinfo, deadline limit: UInt64) throws -> Int32 {
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else { throw DeliveryError(errnoText()) }
        // The server spawns child processes; a socket inherited by one would outlive us.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if posixConnect(fd, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let text = errnoText()
                _ = posixClose(fd)
                throw DeliveryError(text)
            }
            do {
                try waitFor(fd: fd, events: Int16(POLLOUT), deadline: limit, what: "connect")
            } catch {
                _ = posixClose(fd)
                throw error
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
            guard socketError == 0 else {
                _ = posixClose(fd)
                throw DeliveryError(String(cString: strerror(socketError)))
            }
        }
        return fd
    }

    func write(_ bytes: [UInt8]) throws {
        try write(bytes, deadline: stepDeadline())
    }

    /// Sends all of `bytes` before `limit`; the TLS transport sends its records through this.
    func write(_ bytes: [UInt8], deadline limit: UInt64) throws {
        guard fd >= 0 else { throw DeliveryError("SMTP connection to \(peer) is closed") }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, sendFlags)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try Self.waitFor(fd: fd, events: Int16(POLLOUT), deadline: limit, what: "write to \(peer)")
            } else {
                throw DeliveryError("SMTP write to \(peer) failed: \(Self.errnoText())")
            }
        }
    }

    func readLine() throws -> String {
        let limit = stepDeadline()
        while true {
            if let line = try buffer.nextLine(peer: peer) { return line }
            buffer.bytes += try receive(deadline: limit, what: "reply from \(peer)")
        }
    }

    /// The next bytes that arrive (at least one), waiting until `deadline`.
    func receive(deadline: UInt64, what: String) throws -> [UInt8] {
        guard fd >= 0 else { throw DeliveryError("SMTP connection to \(peer) is closed") }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 { return Array(chunk[..<count]) }
            if count == 0 { throw DeliveryError("SMTP server \(peer) closed the connection") }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw DeliveryError("SMTP read from \(peer) failed: \(Self.errnoText())")
            }
            try Self.waitFor(fd: fd, events: Int16(POLLIN), deadline: deadline, what: what)
        }
    }

    func close() {
        guard fd >= 0 else { return }
        _ = posixClose(fd)
        fd = -1
    }

    /// The end of one step: its own timeout, or the conversation's end if that comes first.
    func stepDeadline(within seconds: TimeInterval? = nil) -> UInt64 {
        min(Self.deadline(after: seconds ?? timeout), until)
    }

    static func deadline(after seconds: TimeInterval) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1_000_000_000)
    }

    /// Polls until `events` is ready or the deadline passes; EINTR resumes with the time left.
    static func waitFor(fd: Int32, events: Int16, deadline: UInt64, what: String) throws {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw DeliveryError("SMTP timed out waiting for \(what)") }
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw DeliveryError("SMTP poll failed: \(errnoText())") }
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
