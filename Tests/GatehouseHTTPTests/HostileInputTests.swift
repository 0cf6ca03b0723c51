import Foundation
import Testing
@testable import GatehouseHTTP
import GatehouseTesting

@Suite struct HostileInputTests {
    static func server(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(configure: configure) { router in
            router.post("/upload", .inline { request, _ in .text("\(request.body.count)") })
            router.get("/ok", .inline { _, _ in .text("ok") })
        }
    }

    @Test func malformedRequestLineGets400() async throws {
        let test = try Self.server()
        defer { test.stop() }
        for garbage in ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /ok HTTP/9.9\r\nHost: x\r\n\r\n", "\u{1}\u{2}\u{3} / HTTP/1.1\r\n\r\n"] {
            let connection = try RawConnection(port: test.port)
            connection.send(garbage)
            let reply = String(decoding: await connection.end(), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 4") || reply.hasPrefix("HTTP/1.1 505") || reply.isEmpty, "\(garbage.debugDescription) -> \(reply.prefix(40))")
        }
        #expect(await (try RawConnection(port: test.port)).exchange("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
    }

    @Test func malformedHeaderGets400() async throws {
        let test = try Self.server()
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        connection.send("GET /ok HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n")
        let reply = String(decoding: await connection.end(), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 400"))
    }

    /// Framing that a server in front or behind could read another way (RFC 9112 §5, §6.3).
    @Test func headersThatCouldBeReadTwoWaysGet400() async throws {
        let test = try Self.server()
        defer { test.stop() }
        let ambiguous = [
            "GET /ok HTTP/1.1\r\nHost: x\r\nX-Api-Key : attacker\r\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: x\r\nHo: a\r\n st: evil.example\r\n\r\n",
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde",
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\nabcde",
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        ]
        for request in ambiguous {
            let connection = try RawConnection(port: test.port)
            connection.send(request)
            let reply = String(decoding: await connection.end(), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription) -> \(reply.prefix(60))")
        }
        #expect(await (try RawConnection(port: test.port)).exchange("GET /ok HTTP/1.1\r\nHost: x\r\nX-Fine: a: b\r\n\r\n")?.status == 200)
    }

    @Test func oversizedHeadersAreRefused() async throws {
        let test = try Self.server { $0.maxHeaderSize = 8 * 1024 }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        connection.send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        let reply = String(decoding: await connection.end(), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 431") || reply.hasPrefix("HTTP/1.1 413") || reply.hasPrefix("HTTP/1.1 414"))
    }

    @Test func bodyOverTheLimitGets413() async throws {
        let test = try Self.server { $0.maxBodySize = 1000 }
        defer { test.stop() }
        let ok = try await test.send("POST", "/upload", body: Data(count: 1000))
        #expect(ok.0 == 200 && String(decoding: ok.2, as: UTF8.self) == "1000")
        let tooBig = try await test.send("POST", "/upload", body: Data(count: 1001))
        #expect(tooBig.0 == 413)
        let json = try JSONSerialization.jsonObject(with: tooBig.2) as! [String: [String: String]]
        #expect(json["error"]?["code"] == "payload_too_large")

        // Chunked bodies have no Content-Length; the limit applies as they arrive.
        let connection = try RawConnection(port: test.port)
        let chunk = String(repeating: "z", count: 600)
        connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        #expect(await connection.response()?.status == 413)
    }

    @Test func slowClientIsCutOff() async throws {
        let test = try Self.server { $0.connectionTimeout = 1 }
        defer { test.stop() }
        // Read with a long timeout: only the server's 1 s connection timeout can end this read
        // early; a hold-open would show as a timeout, which is not a close.
        let connection = try RawConnection(port: test.port, timeout: 20)
        connection.send("GET /ok HTTP/1.1\r\nHo")
        let start = Date()
        #expect(await connection.closedByPeer())
        #expect(Date().timeIntervalSince(start) < 15)
    }

    @Test func connectionsBeyondTheLimitWaitForAFreeSlot() async throws {
        let test = try Self.server { $0.maxConnections = 4 }
        defer { test.stop() }
        var held = try (0..<4).map { _ in try RawConnection(port: test.port) }
        for connection in held { connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n") }
        for connection in held { #expect(await connection.response()?.status == 200) }
        // At the limit MHD stops accepting: a fifth connection waits in the backlog, unanswered.
        let extra = try RawConnection(port: test.port, timeout: 2)
        extra.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await extra.response() == nil)
        // Closing one held connection frees a slot and the waiting one is served (MHD notices
        // the close on its next poll; give a loaded machine time).
        held.removeLast()
        extra.setTimeout(20)
        #expect(await extra.response()?.status == 200)
        #expect(held.count == 3)
    }

    /// A thousand clients at once each get exactly one answer. Nothing is timed: the server
    /// cuts no slow head (a loaded machine may take long to read them all), a client whose
    /// connection is refused or ends unanswered connects again, and the read limit only stops
    /// a hang.
    @Test func thousandConcurrentConnections() async throws {
        let test = try Self.server {
            $0.maxConnections = 2000
            $0.threads = 2
            $0.connectionTimeout = 600
        }
        defer { test.stop() }
        let port = test.port
        let request = "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n"
        var connections: [RawConnection] = []
        for _ in 0..<1000 { connections.append(try await Self.connect(port)) }
        for connection in connections { connection.send(request) }
        var answers = [Int](repeating: 0, count: connections.count)
        for index in connections.indices {
            var connection = connections[index]
            for _ in 0..<5 {
                guard let response = await connection.response() else {
                    connection = try await Self.connect(port)
                    connection.send(request)
                    continue
                }
                answers[index] = (response.status == 200 ? 1 : 0) + (connection.hasUnreadBytes ? 1 : 0)
                break
            }
        }
        #expect(answers.filter { $0 == 1 }.count == 1000, "\(answers.filter { $0 != 1 }.count) clients without exactly one 200")
        #expect(await (try RawConnection(port: port)).exchange(request)?.status == 200)
    }

    /// A connection to `port`, tried again while the listener's backlog refuses it.
    private static func connect(_ port: UInt16) async throws -> RawConnection {
        for attempt in 1..<50 {
            if let connection = try? RawConnection(port: port, timeout: 120) { return connection }
            try await Task.sleep(nanoseconds: UInt64(attempt) * 10_000_000)
        }
        return try RawConnection(port: port, timeout: 120)
    }
}

extension RawConnection {
    /// True when bytes are waiting that no read has taken (a second answer, say).
    var hasUnreadBytes: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    func readAfter(_ request: String) -> (status: Int, headers: [String: String], body: Data)? {
        send(request)
        return readResponse()
    }
}
