import Foundation
import Testing
@testable import GatehouseHTTP
import GatehouseTesting

/// Clients that trickle bytes, and refused uploads that must still read their answer.
@Suite struct SlowClientTests {
    static func server(_ configure: (inout ServerConfiguration) -> Void) throws -> TestServer {
        try TestServer(configure: configure) { router in
            router.post("/upload", .inline { request, _ in .text("\(request.body.count)") })
            router.get("/ok", .inline { _, _ in .text("ok") })
        }
    }

    /// Sends one byte of `text` to each connection every `interval` until `seconds` pass or
    /// the server closes all of them; answers how many it closed.
    static func trickle(_ connections: [RawConnection], _ text: String, every interval: Double, for seconds: Double) async throws -> Int {
        try await offPool {
            let bytes = Array(text.utf8)
            var open = Set(connections.indices)
            let deadline = Date().addingTimeInterval(seconds)
            var sent = 0
            while !open.isEmpty, Date() < deadline {
                for index in open {
                    let byte = bytes[sent % bytes.count]
                    let written = withUnsafePointer(to: byte) { Glibc.send(connections[index].fd, $0, 1, Int32(MSG_NOSIGNAL)) }
                    if written <= 0 || connections[index].isClosedByPeerNow() { open.remove(index) }
                }
                sent += 1
                usleep(useconds_t(interval * 1_000_000))
            }
            return connections.count - open.count
        }
    }

    @Test func aTricklingHeadIsCutAtTheDeadline() async throws {
        let test = try Self.server { $0.connectionTimeout = 1 }
        defer { test.stop() }
        let trickler = try RawConnection(port: test.port)
        // One header byte every 200 ms is never idle, so only the head deadline can end it;
        // without one it would still be open when the 12 s run ends.
        let closed = try await Self.trickle([trickler], "GET /ok HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: 500), every: 0.2, for: 12)
        #expect(closed == 1)
        #expect(await (try RawConnection(port: test.port)).exchange("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
    }

    @Test func tricklersCannotLockEveryoneOut() async throws {
        let test = try Self.server { $0.connectionTimeout = 1; $0.maxConnections = 6 }
        defer { test.stop() }
        let tricklers = try (0..<6).map { _ in try RawConnection(port: test.port) }
        async let closed = Self.trickle(tricklers, "GET /ok HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: 500), every: 0.2, for: 12)
        try await Task.sleep(nanoseconds: 300_000_000)
        // Waits in the backlog until the tricklers are cut, then is served.
        let client = try RawConnection(port: test.port, timeout: 10)
        #expect(await client.exchange("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        #expect(try await closed == 6)
    }

    @Test func aKeptAliveConnectionMustSendItsNextHeadInTime() async throws {
        let test = try Self.server { $0.connectionTimeout = 1 }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        #expect(await connection.exchange("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        #expect(try await Self.trickle([connection], "GET /ok HTTP/1.1\r\nX-Slow: " + String(repeating: "b", count: 500), every: 0.2, for: 12) == 1)
    }

    @Test func aTricklingBodyIsCut() async throws {
        let test = try Self.server { $0.connectionTimeout = 1; $0.minBodyBytesPerSecond = 100 }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n")
        #expect(try await Self.trickle([connection], "z", every: 0.2, for: 12) == 1)
        // A body that keeps the rate (twenty times the minimum) is read in full. On a server of
        // its own with a longer connection timeout, so a loaded machine's stall of a second
        // between two pieces does not cut it.
        let patient = try Self.server { $0.connectionTimeout = 5; $0.minBodyBytesPerSecond = 100 }
        defer { patient.stop() }
        let steady = try RawConnection(port: patient.port)
        steady.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "y", count: 200))
        for _ in 0..<9 {
            try await Task.sleep(nanoseconds: 100_000_000)
            steady.send(String(repeating: "y", count: 200))
        }
        #expect(await steady.response()?.status == 200)
    }

    /// MHD passes a chunked body on only chunk by chunk: a chunk-size line that never ends
    /// reaches no handler, so only the deadline watch can see it.
    @Test func aTricklingChunkSizeLineIsCut() async throws {
        let test = try Self.server { $0.connectionTimeout = 1 }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;")
        #expect(try await Self.trickle([connection], "a", every: 0.2, for: 12) == 1)
    }

    /// RFC 9112 §9.6: the rest of a refused body is read and dropped, so the client reads its
    /// 413 instead of a reset.
    @Test func aRefusedUploadStillReadsIts413() async throws {
        let test = try Self.server { $0.maxBodySize = 1 << 20 }
        defer { test.stop() }
        let chunk = String(repeating: "z", count: 64 * 1024)
        let chunked = try RawConnection(port: test.port)
        chunked.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<40 { chunked.send("10000\r\n" + chunk + "\r\n") }
        chunked.send("0\r\n\r\n")
        #expect(await chunked.response()?.status == 413)

        let sized = try RawConnection(port: test.port)
        sized.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(40 * chunk.utf8.count)\r\n\r\n")
        for _ in 0..<40 { sized.send(chunk) }
        #expect(await sized.response()?.status == 413)
    }

    /// The drain allowance is the same whether the size was announced or found out: up to the
    /// allowance past the limit is read and answered, one byte more is answered at once.
    @Test func theDrainAllowanceIsOneRule() async throws {
        let test = try Self.server { $0.maxBodySize = 1000; $0.minDrainBytes = 10_000 }
        defer { test.stop() }
        let drained = try RawConnection(port: test.port)
        drained.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 11000\r\n\r\n" + String(repeating: "z", count: 11000))
        #expect(await drained.response()?.status == 413)
        let announced = try RawConnection(port: test.port)
        #expect(await announced.exchange("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 11001\r\n\r\n")?.status == 413)
        let chunked = try RawConnection(port: test.port)
        chunked.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2af8\r\n" + String(repeating: "z", count: 11000) + "\r\n0\r\n\r\n")
        #expect(await chunked.response()?.status == 413)
    }
}

extension RawConnection {
    /// A non-blocking look: true once the server has closed its side.
    func isClosedByPeerNow() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }
}
