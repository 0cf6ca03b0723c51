import Foundation
import Testing
@testable import GatehouseHTTP

@Suite struct RouterTests {
    struct Tagger: Middleware {
        let tag: String
        let order: OrderLog
        func before(_ request: Request, context: inout RequestContext) throws {
            order.append("before \(tag)")
            if request.headers["X-Deny"] == tag { throw HTTPError(status: 403, code: "denied", message: "no") }
        }
        func after(_ request: Request, context: RequestContext, response: inout Response) {
            order.append("after \(tag)")
            response.headers.add("X-Seen", tag)
        }
    }

    /// Takes `X-Who` as the caller's name; without it, 401.
    struct NameAuthenticator: Authenticator {
        struct Caller: Sendable { let name: String }
        let credential = "name"
        func authenticate(_ request: Request, context: RequestContext) async throws -> Caller {
            guard let name = request.headers["X-Who"] else { throw HTTPError(status: 401, code: "unauthenticated", message: "who?") }
            return Caller(name: name)
        }
    }

    @Test func anAuthenticatedRouteGetsItsPrincipalTypedOrIsRefused() async throws {
        let router = Router()
        router.on(.GET, "/me", authenticatedBy: NameAuthenticator()) { _, context, caller in .text("\(caller.name) at \(context.route)") }
        let responder = Responder(router: router, errorLog: { _ in })
        let answered = await respond(responder, .GET, "/me", headers: ["X-Who": "ada"])
        #expect(String(decoding: answered.bodyData, as: UTF8.self) == "ada at /me")
        #expect(await respond(responder, .GET, "/me").status == 401)
    }

    final class OrderLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    func respond(_ responder: Responder, _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: Data = Data()) async -> Response {
        let routed = responder.route(method: method, path: path, requestID: "req-1", clientAddress: "127.0.0.1")
        return await responder.respond(routed, request: Request(method: method, path: path, headers: headers, body: body))
    }

    @Test func pathParametersAndLiteralsWin() async throws {
        let router = Router()
        router.get("/users/:id", .inline { _, ctx in .text("user \(ctx.parameter("id"))") })
        router.get("/users/me", .inline { _, _ in .text("me") })
        router.get("/files/*", .inline { _, ctx in .text("file \(ctx.parameter("*"))") })
        let responder = Responder(router: router, errorLog: { _ in })
        #expect(String(decoding: await respond(responder, .GET, "/users/42").bodyData, as: UTF8.self) == "user 42")
        #expect(String(decoding: await respond(responder, .GET, "/users/me").bodyData, as: UTF8.self) == "me")
        #expect(String(decoding: await respond(responder, .GET, "/files/a/b.txt").bodyData, as: UTF8.self) == "file a/b.txt")
        let routed = responder.route(method: .GET, path: "/users/7", requestID: "r", clientAddress: "")
        #expect(routed.context.route == "/users/:id")
    }

    @Test func unknownPathIs404WithEnvelope() async throws {
        let responder = Responder(router: Router(), errorLog: { _ in })
        let response = await respond(responder, .GET, "/nope")
        #expect(response.status == 404)
        let json = try JSONSerialization.jsonObject(with: response.bodyData) as! [String: [String: String]]
        #expect(json == ["error": ["code": "not_found", "message": "no such resource", "requestId": "req-1"]])
        #expect(response.headers["X-Request-Id"] == "req-1")
    }

    @Test func dialectsRenderTheirOwnRouterErrors() async throws {
        let router = Router()
        struct Refused: Error {}
        router.get("/api/thing", .inline { _, _ in .text("x") })
        router.get("/api/refused", .async { _, _ in throw Refused() })
        router.renderErrors(under: "/api") { error, path, context in
            guard let error = error as? HTTPError else { return .text("api refused \(path)", status: 409) }
            return .text("api \(error.status) \(path)", status: error.status)
        }
        let responder = Responder(router: router, errorLog: { _ in })
        let missing = await respond(responder, .GET, "/api/nope")
        #expect(missing.status == 404 && String(decoding: missing.bodyData, as: UTF8.self) == "api 404 /api/nope")
        let wrong = await respond(responder, .POST, "/api/thing")
        #expect(wrong.status == 405 && wrong.headers["Allow"] == "GET, HEAD, OPTIONS")
        #expect(String(decoding: wrong.bodyData, as: UTF8.self) == "api 405 /api/thing")
        // What a handler throws goes through the same renderer.
        let refused = await respond(responder, .GET, "/api/refused")
        #expect(refused.status == 409 && String(decoding: refused.bodyData, as: UTF8.self) == "api refused /api/refused")
        // Empty segments are ignored by the routes, and so by the renderers.
        let doubled = await respond(responder, .GET, "//api//refused")
        #expect(doubled.status == 409 && String(decoding: doubled.bodyData, as: UTF8.self) == "api refused //api//refused")
        // Outside the prefix (and on a mere name prefix) the default envelope stays.
        #expect(String(decoding: await respond(responder, .GET, "/apix").bodyData, as: UTF8.self).contains("not_found"))
        #expect(String(decoding: await respond(responder, .GET, "/other").bodyData, as: UTF8.self).contains("not_found"))
    }

    @Test func wrongMethodIs405WithAllowAndOptionsAnswers() async throws {
        let router = Router()
        router.get("/thing", .inline { _, _ in .text("get") })
        router.delete("/thing", .inline { _, _ in .empty() })
        let responder = Responder(router: router, errorLog: { _ in })
        let response = await respond(responder, .POST, "/thing")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        let options = await respond(responder, .OPTIONS, "/thing")
        #expect(options.status == 204)
        #expect(options.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        #expect(await respond(responder, .HEAD, "/thing").status == 200)
    }

    @Test func groupMiddlewareRunsInOrder() async throws {
        let order = OrderLog()
        let router = Router()
        router.group("/api", middleware: [Tagger(tag: "outer", order: order)]) { api in
            api.group("/v1", middleware: [Tagger(tag: "inner", order: order)]) { v1 in
                v1.get("/who", .async { _, _ in .text("inner") })
            }
        }
        let responder = Responder(router: router, errorLog: { _ in })
        let response = await respond(responder, .GET, "/api/v1/who")
        #expect(String(decoding: response.bodyData, as: UTF8.self) == "inner")
        #expect(order.all == ["before outer", "before inner", "after inner", "after outer"])
        #expect(response.headers.values("X-Seen") == ["inner", "outer"])

        let denied = await respond(responder, .GET, "/api/v1/who", headers: ["X-Deny": "inner"])
        #expect(denied.status == 403)
        #expect(denied.headers.values("X-Seen") == ["outer"])
    }

    @Test func decodingErrorsBecome400NamingTheKeyPath() async throws {
        struct Body: Decodable { let name: String; let count: Int }
        let router = Router()
        router.post("/items", .inline { request, _ in
            let body = try request.decode(Body.self)
            return .text("\(body.name) \(body.count)")
        })
        let responder = Responder(router: router, errorLog: { _ in })
        func message(_ body: String) async throws -> String {
            let response = await respond(responder, .POST, "/items", body: Data(body.utf8))
            #expect(response.status == 400)
            let json = try JSONSerialization.jsonObject(with: response.bodyData) as! [String: [String: String]]
            return json["error"]!["message"]!
        }
        #expect(try await message("{not json") == "body is not valid JSON")
        #expect(try await message(#"{"name":"a","count":"x"}"#) == "count: wrong type")
        #expect(try await message(#"{"name":"a"}"#) == "count: required")
        let ok = await respond(responder, .POST, "/items", body: Data(#"{"name":"a","count":2,"extra":true}"#.utf8))
        #expect(String(decoding: ok.bodyData, as: UTF8.self) == "a 2")
    }

    @Test func unexpectedErrorsAre500WithOnlyTheRequestID() async throws {
        struct Secret: Error { let detail = "password=hunter2 at /db" }
        let logged = MemoryLogSink()
        let router = Router()
        router.get("/boom", .async { _, _ in throw Secret() })
        let responder = Responder(router: router, errorLog: { logged.write($0.line) })
        let response = await respond(responder, .GET, "/boom")
        #expect(response.status == 500)
        let text = String(decoding: response.bodyData, as: UTF8.self)
        #expect(text == #"{"error":{"code":"internal_error","message":"internal error","requestId":"req-1"}}"#)
        #expect(logged.lines.count == 1)
        #expect(logged.lines[0].contains("req-1") && logged.lines[0].contains("Secret"))
    }
}
