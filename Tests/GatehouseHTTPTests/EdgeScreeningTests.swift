import Foundation
import Testing
@testable import GatehouseHTTP
import GatehouseTesting

/// What the transport refuses before any handler runs: bodies a JSON route cannot read,
/// control characters in paths and queries, HTTP/1.1 without Host.
@Suite struct EdgeScreeningTests {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    static func server(calls: Calls) throws -> TestServer {
        try TestServer(bodyKind: .json) { router in
            router.post("/echo", .inline { request, _ in
                calls.add()
                return .text("\(request.body.count)")
            })
            router.get("/items/:id", .inline { _, context in
                calls.add()
                return .text(context.parameters["id"] ?? "")
            })
        }
    }

    func post(_ test: TestServer, _ body: Data, type: String? = "application/json") async throws -> (Int, String?) {
        var headers: [String: String] = [:]
        if let type { headers["Content-Type"] = type }
        let (status, _, data) = try await test.send("POST", "/echo", body: body, headers: headers)
        let json = try? JSONSerialization.jsonObject(with: data) as? [String: [String: String]]
        return (status, json?["error"]?["code"])
    }

    @Test func jsonRoutesRefuseWhatTheyCannotRead() async throws {
        let calls = Calls()
        let test = try Self.server(calls: calls)
        defer { test.stop() }
        var deep = #"{"signedPayload":"x","a":"#
        while deep.utf8.count < 900_000 { deep += #"{"a":"# }
        let refused: [(Data, String?, Int, String)] = [
            (Data(deep.utf8), "application/json", 400, "invalid_body"),
            (Data("{not json".utf8), "application/json", 400, "invalid_body"),
            (Data(#"{"name":"first","name":"second"}"#.utf8), "application/json", 400, "duplicate_field"),
            (Data(#"{"name":"probe\u0000x"}"#.utf8), "application/json", 400, "invalid_text"),
            (Data(#"{"name":"x"}"#.utf8), "text/plain", 415, "unsupported_media_type"),
            (Data(#"{"name":"x"}"#.utf8), "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
            (Data("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b--\r\n".utf8), "multipart/form-data; boundary=b", 415,
             "unsupported_media_type"),
        ]
        for (body, type, status, code) in refused {
            let reply = try await post(test, body, type: type)
            #expect(reply.0 == status && reply.1 == code, "\(String(decoding: body.prefix(40), as: UTF8.self)) as \(type ?? "-")")
        }
        #expect(calls.value == 0)
        for type in ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"] {
            #expect(try await post(test, Data(#"{"name":"x"}"#.utf8), type: type).0 == 200)
        }
        // No Content-Type at all is read as JSON (URLSession would add a form type, so raw).
        let untyped = try RawConnection(port: test.port)
        #expect(await untyped.exchange("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n{\"name\":\"x\"}")?.status == 200)
        #expect(calls.value == 5)
        // A request without a body is not refused for the type it names.
        #expect(try await test.get("/items/1", headers: ["Content-Type": "text/plain"]).0 == 200)
        // A refusal known from the head is answered before the body, not after a 100 Continue.
        let expecting = try RawConnection(port: test.port)
        expecting.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nExpect: 100-continue\r\n\r\n")
        #expect(String(decoding: await expecting.end(), as: UTF8.self).hasPrefix("HTTP/1.1 415"))
        #expect(calls.value == 6)
    }

    @Test func controlCharactersInPathsAndQueriesAreRefused() async throws {
        let calls = Calls()
        let test = try Self.server(calls: calls)
        defer { test.stop() }
        for path in ["/items/%00", "/items/a%0Ab", "/items/%7F", "/items/%C2%85", "/no/such/%00"] {
            #expect(try await test.get(path).0 == 404, "\(path)")
        }
        // Raw DEL and C1 bytes too, not only escaped ones.
        for path in ["/items/a\u{7F}b", "/items/a\u{85}b"] {
            let raw = try RawConnection(port: test.port)
            raw.send(Data("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let status = raw.readResponse()?.status
            #expect(status == 404 || status == 400, "\(path.debugDescription): \(String(describing: status))")
        }
        let query = try await test.get("/items/1?to=a%00b@example.com")
        #expect(query.0 == 400)
        #expect(String(decoding: query.2, as: UTF8.self).contains("invalid_query"))
        #expect(calls.value == 0)
        #expect(try await test.get("/items/caf%C3%A9?q=%C3%A9%20x").0 == 200)
    }

    @Test func http11WithoutExactlyOneHostIs400() async throws {
        let calls = Calls()
        let test = try Self.server(calls: calls)
        defer { test.stop() }
        #expect(await (try RawConnection(port: test.port)).exchange("GET /items/1 HTTP/1.1\r\n\r\n")?.status == 400)
        #expect(await (try RawConnection(port: test.port)).exchange("GET /items/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")?.status == 400)
        let later = await (try RawConnection(port: test.port)).exchange("GET /items/1 HTTP/1.2\r\n\r\n")?.status
        #expect(later == 400 || later == 505)
        #expect(calls.value == 0)
        // HTTP/1.0 predates Host.
        let old = try RawConnection(port: test.port)
        old.send("GET /items/1 HTTP/1.0\r\n\r\n")
        #expect(String(decoding: await old.end(), as: UTF8.self).contains(" 200 "))
        #expect(await (try RawConnection(port: test.port)).exchange("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n")?.status == 200)
    }

    /// `Authorization: Bearer <token>`: the scheme in any case, blanks around the token dropped,
    /// nothing for another scheme, a missing space or an empty token.
    @Test(arguments: [
        ("Bearer abc.def", "abc.def"), ("bearer  abc \t", "abc"), ("BEARER\t", nil), ("Bearer    ", nil), ("Bearer", nil),
        ("Basic abc", nil), ("Bearerabc", nil), ("Bearer a b", "a b"), ("Bearer é", "é"),
    ] as [(String, String?)])
    func bearerTokenIsReadFromItsHeader(value: String, token: String?) {
        #expect(Request.bearerToken(["Authorization": value]) == token)
    }
}
