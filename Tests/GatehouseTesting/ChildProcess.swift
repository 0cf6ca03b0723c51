import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its output collected from a pipe.
/// (Foundation's `Process.run` was seen to crash when tests start processes while many
/// other tests run in parallel; spawning directly avoids that.)
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let output = NSMutableData()
    private let lock = NSLock()
    private let reader: Thread
    private var status: Int32?

    public init(path: String, arguments: [String], environment: [String: String]) throws {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, nil, argv, envp)
        close(pipeFDs[1])
        guard result == 0 else {
            close(pipeFDs[0])
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
        }
        pid = child
        let readFD = pipeFDs[0]
        let output = self.output
        let lock = self.lock
        reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(readFD, &buffer, buffer.count)
                if count <= 0 { break }
                lock.withLock { output.append(buffer, length: count) }
            }
            close(readFD)
        }
        reader.start()
    }

    /// Everything the process wrote to stdout and stderr so far.
    public var text: String { lock.withLock { String(decoding: output as Data, as: UTF8.self) } }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for exit (polling, so a test can give up); the exit status, or `nil` on timeout.
    public func wait(seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let status = lock.withLock({ self.status }) { return status }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                lock.withLock { self.status = code }
                try? await Task.sleep(nanoseconds: 50_000_000)  // let the reader drain the pipe
                return code
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return nil
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago, for a child server process.
public func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
            bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return UInt16(bigEndian: address.sin_port)
}
