import Foundation
import Testing
@testable import GatehouseHTTP
import GatehouseTestEvents

/// `Server.respond` answers as the listener does for everything that is not the transport's:
/// routing, path parameters and the query, the head and body screening, body limits, async and
/// inline handlers, and the error envelope; and it counts as a request in flight.
@Suite struct InProcessTests {
    static func server() throws -> TestServer {
        try TestServer(bodyKind: .json, configure: { $0.maxBodySize = 64 }) { router in
            router.on(.GET, "/items/:id", .inline { request, context in
                .text("\(context.parameter("id")) \(request.queryValue("q") ?? "-") \(request.queryValue("r") ?? "-")")
            })
            router.on(.POST, "/echo", .async { request, _ in
                .text(request.json.map { "\($0)" } ?? "no body")
            })
            router.on(.POST, "/small", maxBodySize: 4, .inline { _, _ in .text("ok") })
        }
    }

    static let requests: [(method: String, target: String, headers: [String: String], body: Data)] = [
        ("GET", "/items/a%20b?q=1+2&r=%26", [:], Data()),
        ("GET", "/items/x?q", [:], Data()),
        ("GET", "/nowhere", [:], Data()),
        ("DELETE", "/items/x", [:], Data()),
        ("POST", "/echo", ["Content-Type": "application/json"], Data(#"{"a":[1,2]}"#.utf8)),
        ("POST", "/echo", ["Content-Type": "text/plain"], Data("hello".utf8)),
        ("POST", "/echo", ["Content-Type": "application/json"], Data(#"{"a":"#.utf8)),
        ("POST", "/echo", ["Content-Type": "application/json"], Data(String(repeating: "[", count: 60).utf8)),
        ("POST", "/echo", ["Content-Type": "application/json"], Data(repeating: 0x20, count: 65)),
        ("POST", "/small", ["Content-Type": "application/json"], Data("12345".utf8)),
        ("GET", "/items/x", ["X-Bad": "a\u{7F}b"], Data()),
    ]

    @Test func itAnswersAsTheListenerDoes() async throws {
        let test = try Self.server()
        defer { test.stop() }
        for request in Self.requests {
            let (status, headers, body) = try await test.send(request.method, request.target, body: request.body, headers: request.headers)
            var fields = HTTPHeaders(request.headers.map { ($0.key, $0.value) })
            fields.add("Host", "127.0.0.1:\(test.port)")
            if !request.body.isEmpty { fields.add("Content-Length", String(request.body.count)) }
            let answer = await test.server.respond(method: request.method, target: request.target, headers: fields, body: request.body)
            let label = "\(request.method) \(request.target)"
            #expect(answer.status == status, "\(label)")
            // Each answer names its own request; the rest is byte for byte the same.
            let ownID = try #require(answer.headers["X-Request-Id"])
            let socketID = try #require(headers["x-request-id"])
            let text = String(decoding: answer.bodyData, as: UTF8.self).replacingOccurrences(of: ownID, with: socketID)
            #expect(text == String(decoding: body, as: UTF8.self), "\(label)")
            #expect(answer.headers["Content-Type"] == headers["content-type"], "\(label)")
            #expect(answer.headers["Allow"] == headers["allow"], "\(label)")
        }
    }

    @Test func aRequestWithoutAHostIsRefusedAsOverTheSocket() async throws {
        let test = try Self.server()
        defer { test.stop() }
        let answer = await test.server.respond(method: "GET", target: "/items/x")
        #expect(answer.status == 400)
    }

    @Test func anInProcessRequestIsInFlightUntilItIsAnswered() async throws {
        let gate = Latch()
        let entered = Latch()
        let test = try TestServer { router in
            router.on(.GET, "/held", .async { _, _ in
                entered.signal()
                _ = await gate.wait(timeout: .seconds(10))
                return .text("done")
            })
        }
        defer { test.stop() }
        let answer = Task { await test.server.respond(method: "GET", target: "/held", headers: ["Host": "x"]) }
        _ = await entered.wait(timeout: .seconds(10))
        #expect(test.server.inFlight == 1)
        gate.signal()
        #expect(await answer.value.bodyData == Data("done".utf8))
        await test.server.idle()
        #expect(test.server.inFlight == 0)
    }
}
