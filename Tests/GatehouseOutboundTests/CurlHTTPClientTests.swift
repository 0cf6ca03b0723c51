import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing

/// The libcurl client against an upstream that misbehaves on purpose: every call ends with
/// the error its caller is told to expect, nothing hangs, nothing follows a redirect, and
/// nothing connects to an address the request may not reach.
@Suite(.serialized) struct CurlHTTPClientTests {
    func request(_ url: URL, timeout: TimeInterval = 5) -> OutboundRequest {
        var request = OutboundRequest(url: url, timeoutInterval: timeout)
        request.lowSpeedSeconds = timeout
        request.maxResponseBytes = 4 << 30
        return request
    }

    func failure(_ client: CurlHTTPClient, _ request: OutboundRequest) async -> OutboundError.Code? {
        do {
            _ = try await client.send(request)
            return nil
        } catch let error as OutboundError {
            return error.code
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func answersArriveWholeAndConnectionsAreReused() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        var post = request(upstream.url("/echo"))
        post.httpMethod = "PUT"
        post.httpBody = Data(#"{"a":1}"#.utf8)
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("", forHTTPHeaderField: "X-Empty")
        let (data, response) = try await client.send(post)
        #expect(response.statusCode == 200 && response.value(forHTTPHeaderField: "content-type") == "application/json")
        let echoed = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(echoed["method"] as? String == "PUT" && echoed["bodyLength"] as? Int == 7)
        let fields = echoed["headers"] as! [String]
        #expect(fields.contains("X-Empty:") && fields.contains("Content-Type: application/json"))
        #expect(!fields.contains { $0.lowercased().hasPrefix("expect:") })
        for _ in 0..<5 { _ = try await client.send(request(upstream.url("/ok"))) }
        let (count, _) = try await client.send(request(upstream.url("/connections")))
        #expect(String(decoding: count, as: UTF8.self) == "1")
        #expect(client.metrics.count(.other, outcome: "2xx") == 7)
    }

    @Test func anAnswerThatEndsWithItsHeadIsHandedOverWholeAndALongerOneInPieces() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        // `/ok` is written in one send: its head and body reach curl in one pass of the loop.
        let small = try await client.open(request(upstream.url("/ok"), timeout: 60))
        #expect(small.response.statusCode == 200)
        #expect(small.takeCompleteBody() == Data("ok".utf8))
        #expect(small.takeCompleteBody() == nil)
        #expect(try await small.next() == nil)
        // A body still coming when the head is handed over, or held back past the stream's
        // high water, is read piece by piece, all of it.
        let trickling = try await client.open(request(upstream.url("/trickle"), timeout: 60))
        #expect(trickling.takeCompleteBody() == nil)
        trickling.cancel()
        let large = try await client.open(request(upstream.url("/stream?bytes=1000000"), timeout: 60))
        #expect(large.takeCompleteBody() == nil)
        var received = 0
        while let chunk = try await large.next() { received += chunk.count }
        #expect(received == 1_000_000)
        #expect(large.takeCompleteBody() == nil)
        // A trailer that came in the same pass as the head is not one of the head's fields.
        let trailed = try await client.open(request(upstream.url("/trailers"), timeout: 60))
        #expect(trailed.response.value(forHTTPHeaderField: "X-Head") == "yes")
        #expect(trailed.response.value(forHTTPHeaderField: "X-Trailer") == nil)
        #expect(trailed.takeCompleteBody() == Data("hello".utf8))
    }

    @Test func a401WithWWWAuthenticateIsAnAnswerLikeAnyOther() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        for scheme in ["basic", "bearer"] {
            let (data, response) = try await client.send(request(upstream.url("/unauthorized/\(scheme)")))
            #expect(response.statusCode == 401 && String(decoding: data, as: UTF8.self).contains("invalid_client"), "\(scheme)")
            #expect(response.value(forHTTPHeaderField: "WWW-Authenticate")?.lowercased().hasPrefix(scheme) == true)
        }
    }

    @Test func silentTricklingAndHalfAnsweredUpstreamsTimeOut() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        for path in ["/silent", "/head-only", "/trickle"] {
            var call = request(upstream.url(path), timeout: 30)
            // The low-speed limit ends what never finishes well before the total deadline.
            call.lowSpeedBytesPerSecond = 10
            call.lowSpeedSeconds = 1
            #expect(await failure(client, call) == .timedOut, "\(path)")
        }
        #expect(await failure(client, request(upstream.url("/silent"), timeout: 1)) == .timedOut)
        #expect(client.metrics.count(.other, outcome: "timeout") == 4)
    }

    @Test func brokenAndOversizedAnswersAreRefused() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        #expect(await failure(client, request(upstream.url("/reset"))) == .connectionLost)
        #expect(await failure(client, request(upstream.url("/headers?count=300"))) == .invalidResponse)
        #expect(await failure(client, request(upstream.url("/long-header?bytes=102400"))) == .invalidResponse)
        var small = request(upstream.url("/stream?bytes=100000"))
        small.maxResponseBytes = 50000
        #expect(await failure(client, small) == .tooLarge)
        // Without a length announced, the bytes themselves are counted.
        small = request(upstream.url("/chunked?bytes=100000"))
        small.maxResponseBytes = 50000
        #expect(await failure(client, small) == .tooLarge)
        // A HEAD answer announces a length it does not send: no refusal for that.
        var head = request(upstream.url("/stream?bytes=100000"))
        head.httpMethod = "HEAD"
        head.maxResponseBytes = 10
        #expect(try await client.send(head).1.statusCode == 200)
        // Nobody listens there: refused at once.
        let closed = try TCPPort.unused()
        #expect(await failure(client, request(URL(string: "http://127.0.0.1:\(closed)/")!)) == .connectionRefused)
        #expect(await failure(client, request(URL(string: "http://no-such-host.invalid/")!)) == .hostNotFound)
    }

    @Test func redirectsAreAnswersUnlessAskedAndNeverLeadToAnUnvettedAddress() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        let (_, response) = try await client.send(request(upstream.url("/redirect?to=/ok")))
        #expect(response.statusCode == 302 && response.value(forHTTPHeaderField: "Location") == "/ok")
        var followed = request(upstream.url("/redirect?to=/ok"))
        followed.followsRedirects = true
        let (body, last) = try await client.send(followed)
        #expect(last.statusCode == 200 && String(decoding: body, as: UTF8.self) == "ok")
        // A public-only request is checked on the address curl connects to, whatever the name
        // resolved to when it was vetted: loopback by name or by number is refused.
        for host in ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]"] {
            var vetted = request(upstream.url("/ok", host: host))
            vetted.destinations = .publicOnly
            let code = await failure(client, vetted)
            #expect(code == .destinationRefused, "\(host): \(String(describing: code))")
        }
        #expect(client.metrics.count(.other, outcome: "destination_refused") == 3)
    }

    @Test func onlySpacesAndTabsAreTrimmedFromAFieldValue() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        let (_, spaced) = try await client.send(request(upstream.url("/spaced")))
        #expect(spaced.value(forHTTPHeaderField: "X-Spaced") == "\u{A0}value \u{A0}")
    }

    /// A folded line continues its field; a name with whitespace before its colon or a byte
    /// that is not a token's, a line without a colon, and a NUL or a bare CR in a field are
    /// each refused whole.
    @Test func fieldLinesAreReadByTheirBytes() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        func field(_ line: String) -> OutboundRequest {
            var query = URLComponents()
            query.queryItems = [URLQueryItem(name: "line", value: line)]
            return request(upstream.url("/field?" + (query.percentEncodedQuery ?? "")))
        }
        let (_, folded) = try await client.send(field("X-Folded: one \r\n\t two"))
        #expect(folded.value(forHTTPHeaderField: "x-folded") == "one two")
        for line in ["Set-Cookie : a=1", "X-Caf\u{E9}: a", "X-No-Colon", ": empty-name", "X-Nul: a\u{0}b", "X-Bare-CR: a\rb"] {
            #expect(await failure(client, field(line)) == .invalidResponse, "\(line)")
        }
    }

    @Test func cancellationIsSafeInEveryPhase() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        // Waiting for a head, and at every moment of a short exchange: the caller resumes
        // once, with the answer or CancellationError, and the client goes on working.
        for round in 0..<60 {
            let path = round % 3 == 0 ? "/silent" : round % 3 == 1 ? "/stream?bytes=4000000" : "/ok"
            let task = Task { try await client.send(request(upstream.url(path), timeout: 30)) }
            if round % 2 == 0 { await Task.yield() } else { try await Task.sleep(nanoseconds: UInt64(round % 7) * 1_000_000) }
            task.cancel()
            switch await task.result {
            case .success(let answer): #expect(answer.1.statusCode == 200)
            case .failure(let error): #expect(error is CancellationError, "\(error)")
            }
        }
        let stream = try await client.open(request(upstream.url("/stream?bytes=100000000"), timeout: 30))
        _ = try await stream.next()
        let reader = Task { while try await stream.next() != nil {} }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        stream.cancel()
        stream.cancel()
        #expect(try await client.send(request(upstream.url("/ok"))).1.statusCode == 200)
    }

    @Test func aSlowReaderHoldsTheUpstreamBackAndAbandonedStreamsGiveTheirMemoryBack() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let client = CurlHTTPClient()
        let before = ResidentMemory.bytes()
        // Six 2 GB answers, each read a little and then dropped.
        for _ in 0..<6 {
            let stream = try await client.open(request(upstream.url("/stream?bytes=2000000000"), timeout: 60))
            var read = 0
            while read < 4 << 20, let chunk = try await stream.next() { read += chunk.count }
            stream.cancel()
        }
        // One read slowly: curl waits while the reader is behind.
        let slow = try await client.open(request(upstream.url("/stream?bytes=2000000000"), timeout: 60), highWater: 64 * 1024)
        for _ in 0..<20 {
            let chunk = try await slow.next()
            #expect((chunk?.count ?? 0) <= 2 * 64 * 1024)
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let grown = ResidentMemory.bytes() - before
        slow.cancel()
        #expect(grown < 100 << 20, "resident memory grew by \(grown >> 20) MiB")
    }
}
