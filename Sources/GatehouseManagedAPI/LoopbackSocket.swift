import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket calls of the loopback redirect, each C result checked in one place.
/// Everything here blocks, so it runs only on the presenter's own thread, never on the cooperative pool.
enum LoopbackSocket {
    /// A listening TCP socket on 127.0.0.1:`port` (0 picks a free port), non-blocking, and the port it got.
    static func listen(port: UInt16) throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw failure("socket") }
        do {
            var yes: Int32 = 1
            try check(setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)), "setsockopt")
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            try check(withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }, "bind")
            #if canImport(Glibc)
            try check(Glibc.listen(descriptor, 16), "listen")
            #else
            try check(Darwin.listen(descriptor, 16), "listen")
            #endif
            try check(fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK), "fcntl")
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try check(withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }, "getsockname")
            return (descriptor, UInt16(bigEndian: bound.sin_port))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Waits up to `milliseconds` for a connection and accepts it; nil when none came.
    static func accept(_ listener: Int32, waiting milliseconds: Int32) -> Int32? {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return nil }
        #if canImport(Glibc)
        let client = Glibc.accept(listener, nil, nil)
        #else
        let client = Darwin.accept(listener, nil, nil)
        #endif
        guard client >= 0 else { return nil }
        // Darwin hands the listener's O_NONBLOCK down; the read below relies on SO_RCVTIMEO instead.
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return client
    }

    /// The request's first line, read from at most `limit` bytes up to the end of its headers (so that
    /// closing afterwards does not reset the browser's connection); nil on timeout, EOF or no CRLF.
    static func requestLine(_ client: Int32, limit: Int = 8192) -> String? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        while received.count < limit {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, min($0.count, limit - received.count), 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received += chunk[..<count]
            if contains(received, [13, 10, 13, 10]) { break }
        }
        guard let end = firstCRLF(received) else { return nil }
        return String(decoding: received[..<end], as: UTF8.self)
    }

    /// Writes `bytes` whole (no SIGPIPE if the browser went away), then closes the connection.
    static func answer(_ client: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let sent = bytes.withUnsafeBytes { send(client, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            #else
            let sent = bytes.withUnsafeBytes { send(client, $0.baseAddress! + offset, bytes.count - offset, 0) }
            #endif
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { break }
            offset += sent
        }
        shutdown(client, Int32(SHUT_WR))
        close(client)
    }

    private static func firstCRLF(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0..<(bytes.count - 1)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 }
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    private static func check(_ result: Int32, _ call: String) throws {
        if result < 0 { throw failure(call) }
    }

    private static func failure(_ call: String) -> ManagedAPIException {
        .code(ManagedAPIErrorCodes.OAUTH_FAILED, "the loopback redirect listener failed: \(call) (errno \(errno))")
    }
}
