import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs a short command to its end with `posix_spawn`, for test setup (a key from `openssl`,
/// a file from `python3`). Foundation's `Process` is not used: on Linux it watches its child
/// through `select()`, which writes past its fixed set once a descriptor is numbered 1024 or
/// more, as it is in a test process that runs many servers at once: the heap is corrupted
/// and some later test crashes or hangs.
public enum Command {
    /// The command's standard output and exit status; standard error is dropped.
    public static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let (child, readFD) = try spawn(path, arguments, environment: ProcessInfo.processInfo.environment, standardError: .dropped)
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(readFD, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            output.append(buffer, count: count)
        }
        close(readFD)
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0, errno == EINTR {}
        return (exitStatus(raw), output)
    }

    private static let spawning = NSLock()

    /// Where a spawned command's standard error goes.
    enum StandardError { case withOutput, dropped }

    /// Starts `path` with its standard output on a pipe; returns its pid and the pipe's read end.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String], standardError: StandardError) throws
        -> (pid: pid_t, readFD: Int32)
    {
        // One spawn at a time, its pipe close-on-exec: a child another test spawns meanwhile
        // must not inherit this pipe's write end and hold it open after this child exits (the
        // reader would wait forever). The dup2 onto the child's 1 and 2 clears the flag on those.
        // Nor does the child inherit anything else other tests have open (a socket libpq opened
        // an instant before sets close-on-exec after `socket()`; a test's own sockets and
        // libcurl's never do): held by a command that runs for half a minute, it would keep its
        // peer from seeing the end it waits for.
        spawning.lock()
        defer { spawning.unlock() }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw POSIXError(.EMFILE) }
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        switch standardError {
        case .withOutput: posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        case .dropped: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        ChildDescriptors.closeAllButStandard(&actions)
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
        return (child, pipeFDs[0])
    }

    /// A `waitpid` status as a shell reports it: the exit code, or 128 plus the signal.
    static func exitStatus(_ raw: Int32) -> Int32 {
        (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
}
