import Foundation
import Testing
@testable import GatehouseHTTP
import GatehouseTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ServerTests {
    @Test func aSecondServerOnABusyPortSaysTheAddressIsInUse() throws {
        let first = try TestServer { _ in }
        defer { first.stop() }
        let port = first.port
        #expect {
            _ = try TestServer(configure: { $0.port = port }) { _ in }
        } throws: { error in
            "\(error)".contains("127.0.0.1:\(port): the address is in use")
        }
    }

    @Test func answersInlineAsyncHeadAndJSON() async throws {
        struct Echo: Codable { let message: String }
        let test = try TestServer { router in
            router.get("/hello", .inline { _, _ in .text("hello") })
            router.get("/later/:name", .async { _, ctx in
                try await Task.sleep(nanoseconds: 10_000_000)
                return .text("later \(ctx.parameter("name"))")
            })
            router.post("/echo", .inline { request, _ in try .json(try request.decode(Echo.self), status: 201) })
        }
        defer { test.stop() }
        let (status, headers, body) = try await test.get("/hello?x=1")
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "hello")
        #expect(headers["x-request-id"] != nil)
        #expect(String(decoding: try await test.get("/later/bob").2, as: UTF8.self) == "later bob")
        let head = try await test.send("HEAD", "/hello")
        #expect(head.0 == 200 && head.2.isEmpty)
        let echo = try await test.send("POST", "/echo", body: Data(#"{"message":"hi"}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(echo.0 == 201)
        #expect(String(decoding: echo.2, as: UTF8.self) == #"{"message":"hi"}"#)
        #expect(try await test.get("/missing").0 == 404)
    }

    @Test func rawPathIsKeptAndParametersAreDecoded() async throws {
        let test = try TestServer { router in
            router.get("/items/:id", .inline { request, context in
                .text("\(context.parameter("id"))|\(request.rawPath)|\(request.path)|\(request.queryValue("q") ?? "-")")
            })
        }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        let reply = await connection.exchange("GET /items/not%20a%2Fuuid?q=a+b%21 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(reply?.status == 200)
        #expect(String(decoding: reply?.body ?? Data(), as: UTF8.self) == "not a/uuid|/items/not%20a%2Fuuid|/items/not a/uuid|a b!")
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let test = try TestServer { $0.get("/n", .inline { _, ctx in .text(ctx.requestID) }) }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        var ids = Set<String>()
        for _ in 0..<5 {
            connection.send("GET /n HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try #require(await connection.response())
            #expect(response.status == 200)
            ids.insert(String(decoding: response.body, as: UTF8.self))
        }
        #expect(ids.count == 5)
    }

    @Test func asyncHandlersHoldNoServerThread() async throws {
        // The slow handler waits until the test opens the gate (at most 10 s), so the proof
        // does not depend on timing: with 2 server threads, 20 waiting handlers that held
        // a thread each would leave none for the fast requests.
        let gate = Gate()
        let entered = Recorder()
        let test = try TestServer(configure: { $0.threads = 2 }) { router in
            router.get("/slow", .async { _, _ in
                entered.add("slow")
                await gate.wait(timeout: 10)
                return .text("slow")
            })
            router.get("/fast", .inline { _, _ in .text("fast") })
        }
        defer { test.stop() }
        let finished = Recorder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let (status, _, _) = try await test.get("/slow")
                    #expect(status == 200)
                    finished.add("slow")
                }
            }
            _ = await entered.atLeast(20)
            #expect(test.server.inFlight == 20)
            for _ in 0..<50 {
                let (status, _, _) = try await test.get("/fast")
                #expect(status == 200)
                finished.add("fast")
            }
            #expect(!gate.isOpen)
            gate.open()
            try await group.waitForAll()
        }
        #expect(Array(finished.all.prefix(50)) == Array(repeating: "fast", count: 50))
        #expect(finished.all.count == 70)
    }

    /// A server whose last owner lets go while a handler holds a suspended connection keeps
    /// itself until that request is answered, then stops off MHD's threads: MHD aborts the
    /// process when a daemon is stopped with a connection suspended, or by its own thread.
    @Test func aServerDroppedWhileAHandlerWaitsAnswersItThenStops() async throws {
        let gate = Gate()
        let entered = Recorder()
        var test: TestServer? = try TestServer { router in
            router.get("/slow", .async { _, _ in
                entered.add("slow")
                await gate.wait(timeout: 30)
                return .text("slow")
            })
        }
        let base = try #require(test?.base)
        weak let dropped = test?.server
        let answer = Task { try await TestServer.session.data(from: base.appendingPathComponent("slow")) }
        _ = await entered.atLeast(1)
        test = nil
        #expect(dropped != nil)
        gate.open()
        let (data, response) = try await answer.value
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && String(decoding: data, as: UTF8.self) == "slow")
        // The server lets go of itself once MHD has ended the request, on a queue of its own.
        for _ in 0..<1_000 where dropped != nil { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(dropped == nil)
    }

    @Test func idleWaitsForAHandlerWhoseClientLeft() async throws {
        let gate = Gate()
        let entered = Recorder()
        let finished = Recorder()
        let test = try TestServer { router in
            router.get("/slow", .async { _, _ in
                entered.add("slow")
                await gate.wait(timeout: 10)
                finished.add("slow")
                return .text("done")
            })
        }
        defer { test.stop() }
        await test.server.idle()
        let client = try RawConnection(port: test.port)
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = await entered.atLeast(1)
        client.hangUp()
        let waiting = Task { await test.server.idle(); return finished.all.count }
        #expect(test.server.inFlight == 1)
        gate.open()
        // Not before the handler has finished and its request has ended.
        #expect(await waiting.value == 1)
        #expect(test.server.inFlight == 0)
    }

    /// A server whose `/slow` notes each request in `entered`, then answers `done` half a
    /// second later: still running when a shutdown begins, which must let it finish.
    private func slowServer(_ entered: Recorder) throws -> TestServer {
        try TestServer { router in
            router.get("/slow", .async { _, _ in
                entered.add("slow")
                try await Task.sleep(nanoseconds: 500_000_000)
                return .text("done")
            })
        }
    }

    @Test func gracefulShutdownFinishesInFlightRequests() async throws {
        let entered = Recorder()
        let test = try slowServer(entered)
        defer { test.stop() }
        let port = test.port
        async let first = test.get("/slow")
        async let second = test.get("/slow")
        _ = await entered.atLeast(2)
        #expect(test.server.inFlight == 2)
        await test.server.stop(grace: 5)
        let results = try await [first, second]
        #expect(results.map(\.0) == [200, 200])
        #expect(results.map { String(decoding: $0.2, as: UTF8.self) } == ["done", "done"])
        #expect(throws: (any Error).self) { try RawConnection(port: port) }
    }

    /// A test's `defer` and its owner's teardown may stop one server at once: the second
    /// waits for the first and finds nothing left to stop (MHD aborts the process when one
    /// daemon is stopped twice).
    @Test func stopsThatOverlapStopTheServerOnce() async throws {
        let entered = Recorder()
        let test = try slowServer(entered)
        defer { test.stop() }
        let port = test.port
        async let answer = test.get("/slow")
        _ = await entered.atLeast(1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { await test.server.stop(grace: 5) } }
        }
        #expect(try await answer.0 == 200)
        #expect(throws: (any Error).self) { try RawConnection(port: port) }
    }

    /// Stopping while clients connect, ask and hang up around it. libmicrohttpd's own way to
    /// stop accepting, `MHD_quiesce_daemon`, races its epoll workers (both take the listening
    /// socket out of a worker's epoll set, and the loser aborts the process); 1,500 stops like
    /// these aborted the test process in three runs of six when the server still quiesced.
    /// Every stop returns, every connect after it is refused, and the process lives to say so.
    @Test func stopsWhileClientsComeAndGoEndCleanly() async throws {
        for _ in 0..<300 {
            let test = try TestServer { $0.get("/ok", .inline { _, _ in .text("ok") }) }
            let port = test.port
            let churners = (0..<4).map { _ in
                Task.detached {
                    while !Task.isCancelled {
                        guard let connection = try? RawConnection(port: port, timeout: 2) else { return }
                        connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                        _ = await connection.response()
                    }
                }
            }
            try await Task.sleep(nanoseconds: 10_000_000)
            await test.server.stop(grace: 1)
            for churner in churners {
                churner.cancel()
                _ = await churner.value
            }
            #expect(throws: (any Error).self) { try RawConnection(port: port) }
        }
    }
}

/// Lets async handlers wait until a test opens it.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    var isOpen: Bool { lock.withLock { opened } }

    func open() {
        let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            opened = true
            defer { waiters.removeAll() }
            return waiters
        }
        resumed.forEach { $0.resume() }
    }

    func wait(timeout: Double) async {
        Task {
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
            self.open()
        }
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if opened { return true }
                waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// Items added from handlers (or log lines written by the server), which a test can await.
final class Recorder: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []

    func add(_ item: String) {
        let ready = lock.withLock { () -> [CheckedContinuation<[String], Never>] in
            items.append(item)
            let due = waiters.filter { $0.count <= items.count }
            waiters.removeAll { $0.count <= items.count }
            return due.map(\.continuation)
        }
        let all = self.all
        for waiter in ready { waiter.resume(returning: all) }
    }

    var all: [String] { lock.withLock { items } }

    func write(_ line: String) { add(line) }
    var lines: [String] { all }

    /// Every item so far, once there are at least `count`.
    func atLeast(_ count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> [String]? in
                if items.count >= count { return items }
                waiters.append((count, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}
