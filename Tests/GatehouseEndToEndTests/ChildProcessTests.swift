import Foundation
import GatehouseTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A command a test starts sees its three standard descriptors and nothing of the test
/// process's, even one opened without close-on-exec.
@Suite struct ChildProcessTests {
    /// The descriptors `ls /proc/self/fd` lists in a child started while one without close-on-exec is open.
    func descriptorsOfAChild(_ start: () async throws -> String) async throws -> Set<Int32> {
        let opened = open("/dev/null", O_RDONLY)
        // F_DUPFD sets no close-on-exec flag, and a high number cannot be mistaken for the child's own.
        let leaked = fcntl(opened, F_DUPFD, 300)
        close(opened)
        defer { close(leaked) }
        #expect(leaked >= 300 && fcntl(leaked, F_GETFD) & FD_CLOEXEC == 0)
        let output = try await start()
        return Set(output.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
    }

    @Test func aCommandInheritsOnlyItsStandardDescriptors() async throws {
        let seen = try await descriptorsOfAChild {
            String(decoding: try Command.run("/bin/ls", ["/proc/self/fd"]).output, as: UTF8.self)
        }
        // 0, 1 and 2, and the one `ls` opens to read the folder (the lowest free number).
        #expect(seen == [0, 1, 2, 3])
    }

    @Test func aChildProcessInheritsOnlyItsStandardDescriptors() async throws {
        let seen = try await descriptorsOfAChild {
            let child = try ChildProcess(path: "/bin/ls", arguments: ["/proc/self/fd"], environment: [:])
            #expect(await child.wait(seconds: 30) == 0)
            return child.text
        }
        #expect(seen == [0, 1, 2, 3])
    }
}
