import Foundation
import GatehouseTesting
import Testing

/// A command a test starts sees its three standard descriptors and nothing of the test
/// process's, even one opened without close-on-exec.
@Suite struct ChildProcessTests {
    @Test func aCommandInheritsOnlyItsStandardDescriptors() async throws {
        let seen = try await descriptorsSeenByAChild {
            String(decoding: try Command.run("/bin/ls", ["/proc/self/fd"]).output, as: UTF8.self)
        }
        #expect(seen == [0, 1, 2, 3])
    }

    @Test func aChildProcessInheritsOnlyItsStandardDescriptors() async throws {
        let seen = try await descriptorsSeenByAChild {
            let child = try ChildProcess(path: "/bin/ls", arguments: ["/proc/self/fd"], environment: [:])
            #expect(await child.wait(seconds: 30) == 0)
            return child.text
        }
        #expect(seen == [0, 1, 2, 3])
    }
}
