import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `totalTimeout` bounds the whole conversation, however patient each step is: a server that
/// answers every command just inside the step timeout cannot keep a send past its delivery
/// lease (where another dispatcher would claim the code and send it again).
@Suite struct SMTPDeadlineTests {
    @Test func aServerSlowAtEveryStepIsGivenUpBeforeTheMessageIsHandedOver() async throws {
        // Four replies before DATA at 0.2 s each, against 0.5 s for it all; a slower machine
        // only reaches the end sooner. Each step alone has ten seconds.
        let server = try SlowSMTPServer(delay: 0.2)
        let delivery = SMTPDelivery(
            host: "127.0.0.1", port: server.port, from: "codes@gatehouse.test", security: .none, timeout: 10, totalTimeout: 0.5,
            clock: ManualClock())
        let message = OutboundMessage(id: "msg-01", tenantId: "t", channel: .email, to: "person@example.com", body: "123456", createdAt: Date())
        let error = await #expect(throws: DeliveryError.self) { try await delivery.deliver(message) }
        #expect(error?.description.contains("timed out") == true)
        await server.untilHungUp()
        #expect(server.commands.first?.hasPrefix("EHLO") == true)
        #expect(!server.commands.contains { $0.uppercased() == "DATA" }, "\(server.commands)")
    }
}

/// Speaks just enough SMTP to one client, waiting `delay` before every reply.
final class SlowSMTPServer: @unchecked Sendable {
    private let listener: Listener
    private let lock = NSLock()
    private var received: [String] = []
    private let ended = DispatchSemaphore(value: 0)

    init(delay: TimeInterval) throws {
        listener = try Listener()
        Thread.detachNewThread { [self] in
            serve(delay: useconds_t(delay * 1_000_000))
            ended.signal()
        }
    }

    var port: UInt16 { listener.port }
    /// The command lines received, in order.
    var commands: [String] { lock.withLock { received } }

    /// Returns once the client has closed the connection.
    func untilHungUp() async { _ = try? await offPool { self.ended.wait() } }

    private func serve(delay: useconds_t) {
        let fd = accept(listener.fd, nil, nil)
        guard fd >= 0 else { return }
        defer { close(fd) }
        func say(_ line: String) { _ = Array((line + "\r\n").utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        say("220 slow.test ESMTP")
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var inData = false
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return }
            pending += chunk[..<count]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeSubrange(...end)
                if inData {
                    if line == "." { inData = false; usleep(delay); say("250 queued") }
                    continue
                }
                lock.withLock { received.append(line) }
                usleep(delay)
                switch line.prefix(4).uppercased() {
                case "DATA": inData = true; say("354 go ahead")
                case "QUIT": say("221 bye"); return
                default: say("250 ok")
                }
            }
        }
    }
}
