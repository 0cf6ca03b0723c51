import Foundation
import GatehouseDatabase
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client for byte-exact and hostile HTTP tests.
public final class RawConnection {
    /// -1 once closed.
    public private(set) var fd: Int32

    public init(port: UInt16, timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            // A throwing init of a class whose properties are all set still runs deinit: the
            // descriptor is closed here once, and deinit must not close its number again
            // (by then it may be another thread's socket, a test server's listener say).
            close(fd)
            fd = -1
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Closes the connection from this side, as a client that gives up does.
    public func hangUp() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Changes how long a read waits before it gives up.
    public func setTimeout(_ seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    public func send(_ text: String) { send(Data(text.utf8)) }

    public func send(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Reads whatever arrives until the peer closes or the timeout passes.
    public func readToEnd() -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            result.append(contentsOf: buffer[0..<n])
        }
        return result
    }

    /// Reads one response with a Content-Length body (keep-alive safe).
    public func readResponse() -> (status: Int, headers: [String: String], body: Data)? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                var headers: [String: String] = [:]
                for line in lines {
                    if let colon = line.firstIndex(of: ":") {
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while data.count - end.upperBound < length {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { return nil }
                    data.append(contentsOf: buffer[0..<n])
                }
                let body = data[end.upperBound..<(end.upperBound + length)]
                return (Int(statusLine[1]) ?? 0, headers, Data(body))
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    /// True when the server has closed its side: a read returns end of file or a reset.
    /// A read that merely times out is not a close.
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }
}

/// Runs blocking work (a socket read, a process's exit, a stop) on a thread of the tests'
/// own pool, so tests never starve the concurrency pool that the server's async handlers
/// need. Not `DispatchQueue.global()`: on Linux its threads are the concurrency pool's, and
/// GCD adds one only about a second after all of them block.
public func offPool<T>(_ body: @escaping () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        BlockingThreadPool.tests.run { continuation.resume(with: Result { try body() }) }
    }
}

extension BlockingThreadPool {
    /// Threads for the tests' blocking work: one is added whenever all are busy.
    static let tests = BlockingThreadPool(name: "gatehouse.tests.blocking", maxThreads: 512)
}

extension RawConnection {
    public func response() async -> (status: Int, headers: [String: String], body: Data)? {
        try? await offPool { self.readResponse() } ?? nil
    }
    public func end() async -> Data { (try? await offPool { self.readToEnd() }) ?? Data() }
    public func closedByPeer() async -> Bool { (try? await offPool { self.isClosedByPeer() }) ?? false }
    public func exchange(_ request: String) async -> (status: Int, headers: [String: String], body: Data)? {
        send(request)
        return await response()
    }
}
