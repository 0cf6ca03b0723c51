import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Hostile request heads as raw bytes on a live server. Each case says what a strict RFC 9112
/// reader does with it, and the server must do the same: answer it once (in the envelope of
/// the dialect that owns the path, where Gatehouse answers), close the connection after a
/// refusal, and never answer a request smuggled behind it. A few are refused by libmicrohttpd
/// itself before any of Gatehouse's code runs (its own page; README, "HTTP framing").
@Suite(.serialized) struct FramingTests {
    enum Strict {
        /// Read and answered with this status.
        case answers(Int)
        /// A strict reader refuses it; libmicrohttpd reads it harmlessly otherwise (it frames nothing), as the README says.
        case libraryAccepts(Int)
        /// Refused with this status and code in the owning dialect's envelope, then closed.
        case refuses(Int, String)
        /// Refused by libmicrohttpd with this status and its own page, then closed.
        case libraryRefuses(Int)
        /// Closed without an answer by libmicrohttpd (no request line it can read).
        case closesSilently
    }

    struct Case: CustomStringConvertible {
        let name: String
        let bytes: Data
        let strict: Strict
        var description: String { name }
        init(_ name: String, _ text: String, _ strict: Strict) {
            self.name = name
            bytes = Data(text.utf8)
            self.strict = strict
        }
    }

    /// Answers 200 with a body no other path has: if it ever appears, a smuggled request was read.
    static let smuggled = "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n"
    static let marker = #""status":"ready""#

    static func cases(adminToken token: String) -> [Case] {
        let long = String(repeating: "a", count: 9000)
        let bigHeaders = (0..<40).map { "X-Pad-\($0): " + String(repeating: "b", count: 1000) + "\r\n" }.joined()
        let manyHeaders = (0..<150).map { "X-F\($0): v\r\n" }.joined()
        let hugeHeader = "X-Huge: " + String(repeating: "c", count: 120_000) + "\r\n"
        return [
            // What a strict reader accepts.
            Case("plain GET", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", .answers(200)),
            Case("HTTP/1.0 without Host", "GET /healthz HTTP/1.0\r\n\r\n", .answers(200)),
            Case("bare LF line ends (§2.2 MAY)", "GET /healthz HTTP/1.1\nHost: x\n\n", .answers(200)),
            Case("tab after the colon", "GET /healthz HTTP/1.1\r\nHost:\tx\r\n\r\n", .answers(200)),
            Case("trailing whitespace in a value", "GET /healthz HTTP/1.1\r\nHost: x \t\r\nX-A: b  \r\n\r\n", .answers(200)),
            Case("higher minor version (§2.3)", "GET /healthz HTTP/1.2\r\nHost: x\r\n\r\n", .answers(200)),
            Case("obs-text in a value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Name: caf\u{e9}\r\n\r\n", .answers(200)),
            Case("empty value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Empty:\r\n\r\n", .answers(200)),
            Case("chunked, case-insensitive", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n", .answers(405)),
            Case("chunk extension", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;ext=1\r\na\r\n0\r\n\r\n", .answers(405)),
            Case("leading empty line (§2.2 SHOULD ignore)", "\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", .answers(200)),
            Case("plus in the query (a form's space)", "GET /healthz?a=b+c&d=%20 HTTP/1.1\r\nHost: x\r\n\r\n", .answers(200)),
            Case("percent-encoded NUL in the path names nothing", "GET /healthz%00 HTTP/1.1\r\nHost: x\r\n\r\n", .answers(404)),
            Case("admin token, well formed", "GET /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n", .answers(200)),

            // Framing a front proxy could read otherwise (RFC 9112 §6): refused and closed.
            Case("Content-Length and chunked", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("chunked and Content-Length", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 40\r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("HTTP/1.0 with Transfer-Encoding", "POST /admin/v1/tenants HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("unknown coding", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("coding list", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("chunked with trailing space (MHD reads an unknown coding)", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked \r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("two Transfer-Encoding fields", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("two Content-Lengths", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}" + smuggled, .refuses(400, "invalid_header")),
            Case("the same Content-Length twice", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}", .refuses(400, "invalid_header")),
            Case("folded Transfer-Encoding", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("obs-fold", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: first\r\n  second\r\n\r\n", .refuses(400, "invalid_header")),
            Case("obs-fold with a tab", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: first\r\n\tsecond\r\n\r\n", .refuses(400, "invalid_header")),
            Case("folded first field", "GET /healthz HTTP/1.1\r\n Host: x\r\n\r\n", .refuses(400, "invalid_header")),

            // NUL, CR and other controls in the head (RFC 9110 §5.5): refused and closed.
            Case("NUL in Content-Length", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: 0\u{0} 23\r\n\r\n" + smuggled, .refuses(400, "invalid_header")),
            Case("NUL after the admin token", "GET /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\u{0}junk\r\n\r\n", .refuses(400, "invalid_header")),
            Case("NUL in a value before another field", "GET /healthz HTTP/1.1\r\nX-A: a\u{0}\r\nHost: x\r\n\r\n", .refuses(400, "invalid_header")),
            Case("NUL in a name after the colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nX:A\u{0}B: v\r\n\r\n", .refuses(400, "invalid_header")),
            Case("NUL in the Host value", "GET /healthz HTTP/1.1\r\nHost: x\u{0}.evil\r\n\r\n", .refuses(400, "invalid_header")),
            Case("bare CR in a value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", .refuses(400, "invalid_header")),
            Case("NUL in the admin path", "GET /admin/v1/tenants\u{0}x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n", .refuses(400, "invalid_request")),
            Case("NUL in the health path", "GET /healthz\u{0}junk HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("NUL in the query", "GET /healthz?a=b\u{0}c HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("NUL in the method", "GE\u{0}T /healthz HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("bare CR in the target", "GET /healthz\rx HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("DEL in the target", "GET /healthz\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("tab in the target", "GET /heal\tthz HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("space in the path", "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("space in the query", "GET /healthz?a b HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("escape in the query", "GET /healthz?a=\u{1B}[31m HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),

            // The request line: exactly one SP between its three parts (RFC 9112 §3).
            Case("two spaces after the method", "GET  /healthz HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("two spaces before the version", "GET /healthz  HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),
            Case("two spaces in a DIDWW path", "GET  /api/v1/verifications/x HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(400, "invalid_request")),

            // Field names and Host (RFC 9112 §3.2, §5.1).
            Case("whitespace before the colon", "GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", .refuses(400, "invalid_header")),
            Case("name that is not a token", "GET /healthz HTTP/1.1\r\nHost: x\r\nX@Y: v\r\n\r\n", .refuses(400, "invalid_header")),
            Case("empty name as the last line (libmicrohttpd drops it)", "GET /healthz HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n", .refuses(400, "invalid_header")),
            Case("NUL opening a line (libmicrohttpd ends the head there)", "GET /healthz HTTP/1.1\r\nHost: x\r\n\u{0}X: hidden\r\n\r\n", .refuses(400, "invalid_header")),
            Case("two NULs hiding bytes in the last field", "GET /healthz HTTP/1.1\r\nHost: x\u{0}\u{0}junk\r\n\r\n", .refuses(400, "invalid_header")),
            Case("empty name before another field", "GET /healthz HTTP/1.1\r\n: v\r\nHost: x\r\n\r\n", .refuses(400, "invalid_header")),
            Case("two Hosts", "GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", .refuses(400, "invalid_host")),
            Case("HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", .refuses(400, "invalid_host")),

            // Limits, in the owning dialect's envelope.
            Case("target past 8 KiB (admin)", "GET /admin/v1/\(long) HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(414, "uri_too_long")),
            Case("target past 8 KiB (DIDWW)", "GET /api/v1/verifications/\(long) HTTP/1.1\r\nHost: x\r\n\r\n", .refuses(414, "uri_too_long")),
            Case("head past its limit", "GET /healthz HTTP/1.1\r\nHost: x\r\n\(bigHeaders)\r\n", .refuses(431, "header_too_large")),
            Case("more than 100 fields", "GET /healthz HTTP/1.1\r\nHost: x\r\n\(manyHeaders)\r\n", .refuses(431, "header_too_large")),
            Case("Expect 100-continue past the body limit", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\nExpect: 100-continue\r\n\r\n", .refuses(413, "payload_too_large")),

            // What libmicrohttpd refuses before Gatehouse sees anything (its page, then close).
            Case("HTTP/2.0 on HTTP/1 framing", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n" + smuggled, .libraryRefuses(505)),
            Case("HTTP/0.9", "GET /healthz HTTP/0.9\r\nHost: x\r\n\r\n" + smuggled, .libraryRefuses(505)),
            Case("no version", "GET /healthz\r\nHost: x\r\n\r\n" + smuggled, .libraryRefuses(400)),
            Case("lowercase version", "GET /healthz http/1.1\r\nHost: x\r\n\r\n" + smuggled, .libraryRefuses(400)),
            Case("space after the version", "GET /healthz HTTP/1.1 \r\nHost: x\r\n\r\n" + smuggled, .libraryRefuses(400)),
            Case("field without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n" + smuggled, .libraryRefuses(400)),
            Case("Content-Length not a number", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n" + smuggled, .libraryRefuses(400)),
            Case("Content-Length empty", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n" + smuggled, .libraryRefuses(400)),
            Case("Content-Length list", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 1\r\n\r\n{" + smuggled, .libraryRefuses(400)),
            Case("Content-Length past 64 bits", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n" + smuggled, .libraryRefuses(413)),
            Case("chunk size not hex", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + smuggled, .libraryRefuses(400)),
            Case("chunk size past 64 bits", "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n" + smuggled, .libraryRefuses(413)),
            Case("head past the connection's memory", "GET /healthz HTTP/1.1\r\nHost: x\r\n\(hugeHeader)\r\n" + smuggled, .libraryRefuses(431)),
            Case("request line past the connection's memory", "GET /\(String(repeating: "d", count: 120_000)) HTTP/1.1\r\nHost: x\r\n\r\n", .libraryRefuses(414)),
            Case("leading space", " GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + smuggled, .closesSilently),
            Case("no space at all", "GET\r\nHost: x\r\n\r\n" + smuggled, .closesSilently),
        ]
    }

    @Test func everyHeadIsReadAsAStrictReaderWouldReadIt() async throws {
        let live = try await LiveServer.start()
        defer { Task { await live.stop() } }
        let cases = Self.cases(adminToken: live.credentials.adminToken)
        #expect(cases.count >= 50)
        for test in cases {
            let connection = try RawConnection(port: live.port, timeout: 10)
            connection.send(test.bytes)
            // An accepted head keeps its connection: its one answer is read. A refused one is
            // read to the close, so that whatever follows it is seen.
            let (responses, closed): ([(status: Int, headers: [String: String], body: Data)], Bool)
            switch test.strict {
            case .answers, .libraryAccepts:
                let answer = try await offPool { connection.readResponse() }
                (responses, closed) = (answer.map { [$0] } ?? [], false)
            default:
                (responses, closed) = try await offPool { Self.readAll(connection) }
            }
            let first = responses.first
            let text = String(decoding: first?.body ?? Data(), as: UTF8.self)
            switch test.strict {
            case .answers(let status), .libraryAccepts(let status):
                #expect(first?.status == status, "\(test): \(String(describing: first?.status)) \(text)")
            case .refuses(let status, let code):
                #expect(first?.status == status, "\(test): \(String(describing: first?.status)) \(text)")
                // DIDWW's envelope has its own codes; the others carry the transport's.
                let envelope = test.bytes.range(of: Data("/api/v1/".utf8)) != nil ? #""errors":[{"code":""# : #""\#(code)""#
                #expect(first?.headers["content-type"]?.hasPrefix("application/json") == true && text.contains(envelope), "\(test): \(text)")
                #expect(closed && responses.count == 1, "\(test): closed \(closed), \(responses.count) answers")
            case .libraryRefuses(let status):
                #expect(first?.status == status && closed, "\(test): \(String(describing: first?.status)) closed \(closed)")
            case .closesSilently:
                #expect(first == nil && closed, "\(test): \(String(describing: first?.status))")
            }
            #expect(!responses.contains { String(decoding: $0.body, as: UTF8.self).contains(Self.marker) }, "\(test): the smuggled request was answered")
        }
    }

    @Test func aChunkedBodyPastTheLimitIsAnsweredAtOnceThenClosed() async throws {
        let live = try await LiveServer.start()
        defer { Task { await live.stop() } }
        let connection = try RawConnection(port: live.port, timeout: 10)
        connection.send("POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        // 1.5 MiB past a 1 MiB limit, then the client waits for its answer without ending the body.
        let chunk = String(repeating: " ", count: 65536)
        for _ in 0..<24 { connection.send("10000\r\n" + chunk + "\r\n") }
        let (responses, closed) = try await offPool { Self.readAll(connection) }
        #expect(responses.count == 1 && responses.first?.status == 413, "\(responses.map(\.status))")
        let text = String(decoding: responses.first?.body ?? Data(), as: UTF8.self)
        #expect(text.contains("payload_too_large"), "\(text)")
        #expect(responses.first?.headers["connection"] == "close" && closed)
    }

    @Test func aConnectionThatWasAnsweredStaysOpenForTheNext() async throws {
        let live = try await LiveServer.start()
        defer { Task { await live.stop() } }
        let connection = try RawConnection(port: live.port, timeout: 5)
        // One at a time: `readResponse` keeps no bytes past the answer it reads.
        connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try await offPool { connection.readResponse() }
        connection.send("GET /healthz HTTP/1.1\nHost: x\n\n")
        let second = try await offPool { connection.readResponse() }
        #expect(first?.status == 200 && second?.status == 200, "\(String(describing: second))")
    }

    @Test func aRefusalInTheDIDWWAndDatacovePathsUsesTheirEnvelopes() async throws {
        let live = try await LiveServer.start()
        defer { Task { await live.stop() } }
        for (path, key) in [("/api/v1/verifications", #""errors""#), ("/api/auth/v1/mobile/request-otp", #""error""#)] {
            let connection = try RawConnection(port: live.port, timeout: 5)
            connection.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\u{0} 5\r\n\r\n")
            let (responses, closed) = try await offPool { Self.readAll(connection) }
            let text = String(decoding: responses.first?.body ?? Data(), as: UTF8.self)
            #expect(responses.first?.status == 400 && text.contains(key) && closed, "\(path): \(text)")
        }
    }

    /// Every answer until the server closes (or is silent for a second), and whether it closed.
    /// All bytes are read first, so an answer that arrives with another is never missed.
    static func readAll(_ connection: RawConnection) -> ([(status: Int, headers: [String: String], body: Data)], Bool) {
        connection.setTimeout(3)
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let count = recv(connection.fd, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { closed = true }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        var responses: [(status: Int, headers: [String: String], body: Data)] = []
        var rest = bytes[...]
        while let end = rest.range(of: Data("\r\n\r\n".utf8)) {
            var lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let status = lines.removeFirst().split(separator: " ")
            guard status.count > 1, status[0].hasPrefix("HTTP/"), let code = Int(status[1]) else { break }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = min(Int(headers["content-length"] ?? "0") ?? 0, rest.count - (end.upperBound - rest.startIndex))
            let body = rest[end.upperBound..<(end.upperBound + length)]
            responses.append((code, headers, Data(body)))
            rest = rest[(end.upperBound + length)...]
        }
        return (responses, closed)
    }
}
