import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseTesting
import Testing

/// Mail servers that never greet hold only their own conversations: a message to a working
/// server is delivered while four conversations (more than this machine's cores) still wait
/// on silent ones. On a concurrent DispatchQueue, as wide as the CPUs on Linux, it waited.
@Suite struct SMTPThreadsTests {
    final class Finished: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func aSilentMailServerHoldsNoOtherMessage() async throws {
        let silent = try await HostileUpstream.start()
        defer { silent.stop() }
        try await SMTPTestServer.with() { server in
            let stuck = SMTPDeliveryTests.delivery(port: silent.port, timeout: 20)
            let finished = Finished()
            let waiting = (0..<4).map { _ in
                Task {
                    try? await stuck.deliver(SMTPDeliveryTests.message())
                    finished.add()
                }
            }
            // Each stuck conversation is waiting for the greeting before the working one starts.
            try await Task.sleep(nanoseconds: 300_000_000)
            try await SMTPDeliveryTests.delivery(port: server.port).deliver(SMTPDeliveryTests.message())
            #expect(try server.messages().count == 1)
            #expect(finished.value == 0, "the silent servers' conversations ended before the other message went")
            waiting.forEach { $0.cancel() }
            silent.stop()
            for task in waiting { await task.value }
        }
    }
}
