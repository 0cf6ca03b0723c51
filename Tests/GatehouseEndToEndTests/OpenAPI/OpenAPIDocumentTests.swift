import Foundation
import GatehouseHTTP
@testable import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing
import GatehouseFormats

/// The served OpenAPI documents against the router and the wire types: every route is in the
/// document of its dialect (or on the short list of routes in none) and every operation is a
/// route; every example decodes with its wire type and re-encodes to the same JSON; every
/// example, as served, validates against its schema.
@Suite struct OpenAPIDocumentTests {
    @Test func everyRouteIsDocumentedAndEveryOperationIsARoute() async throws {
        let live = try await LiveServer.start(inProcess: true)
        let routes = Set(live.app.router.routes.map { "\($0.method.rawValue) \(Operation.openAPIPath($0.template))" })
        await live.stop()
        var documented: [String: String] = [:]
        for document in OpenAPIDocuments.all {
            for operation in document.operations {
                let key = "\(operation.method.rawValue) \(operation.openAPIPath)"
                #expect(documented[key] == nil, "\(key) is in \(documented[key] ?? "") and \(document.name)")
                documented[key] = document.name
            }
        }
        let left = routes.filter { route in
            let path = String(route.split(separator: " ")[1])
            return !OpenAPIDocuments.undocumented.contains { path == $0.prefix || path.hasPrefix($0.prefix.hasSuffix("/") ? $0.prefix : $0.prefix + "/") }
        }
        #expect(left.subtracting(documented.keys).sorted() == [], "routes in no document")
        #expect(Set(documented.keys).subtracting(routes).sorted() == [], "operations that are no route")
    }

    @Test func everyExampleRoundTripsThroughItsWireTypeAndEncodesAsFoundationWould() throws {
        for document in OpenAPIDocuments.all {
            for operation in document.operations {
                let contents = [operation.body].compactMap { $0 } + operation.replies.compactMap(\.content)
                for example in contents.compactMap(\.example) {
                    #expect(try example.roundTrip() == example.value, "\(document.name) \(operation.id): \(example.wireType)")
                    #expect(try example.encodersAgree(), "\(document.name) \(operation.id): \(example.wireType) is written otherwise")
                }
            }
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func servedExamplesValidateAgainstTheirSchemas(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let index = try JSONDecoder().decode(OpenAPIRoutes.Index.self, from: try await get(live, "/openapi").body)
        #expect(index.documents.map(\.name) == OpenAPIDocuments.all.map(\.name))
        var checked = 0
        for entry in index.documents {
            let served = try await get(live, entry.url)
            #expect(served.status == 200)
            let document = try JSONDecoder().decode(JSONValue.self, from: served.body)
            #expect(document.object?["openapi"] == .string("3.1.0"))
            let check = JSONSchemaCheck(document: document)
            for (path, item) in document.object?["paths"]?.object ?? [:] {
                for (method, operation) in item.object ?? [:] {
                    let operation = operation.object ?? [:]
                    var media = (operation["requestBody"]?.object?["content"]?.object ?? [:]).values.map { $0 }
                    for reply in (operation["responses"]?.object ?? [:]).values {
                        media += (reply.object?["content"]?.object ?? [:]).values
                    }
                    for content in media.compactMap(\.object) {
                        // Every schema, with or without an example, uses only keywords the check knows.
                        #expect(check.problems(.null, content["schema"] ?? .null).allSatisfy { !$0.contains("unchecked keyword") })
                        guard let example = content["example"], let schema = content["schema"] else { continue }
                        #expect(check.problems(example, schema) == [], "\(entry.name) \(method) \(path)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 40)
        #expect(try await get(live, "/openapi/nothing.json").status == 404)
        await live.stop()
    }

    /// The served bytes, literally: the list, and one example as every client reads it.
    @Test func theListAndAVerificationExampleAreLiteralJSON() async throws {
        let live = try await LiveServer.start(inProcess: true)
        let list = String(decoding: try await get(live, "/openapi").body, as: UTF8.self)
        #expect(list.hasPrefix(#"{"documents":[{"name":"verification","title":"Gatehouse verification (DIDWW dialect)","url":"/openapi/verification.json"}"#))
        let document = try JSONDecoder().decode(JSONValue.self, from: try await get(live, "/openapi/verification.json").body)
        let example = document.object?["paths"]?.object?["/api/v1/verifications/{id}"]?.object?["get"]?.object?["responses"]?.object?["200"]?
            .object?["content"]?.object?["application/json"]?.object?["example"]
        let literal = #"""
            {"data":{"delivery_method":"sms","destination":"14155550123","error_code":null,"error_detail":null,"expires_at":"2026-12-01T10:05:00Z",
            "fee":"0.05","id":"0193a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b","sms":{"autofill":{"type":"domain","value":"shop.example"},"code_length":6,
            "interception_timeout":60,"language":"en-US","template":"Your code is {{CODE}}","template_fallback_reason":null,"template_group":"_default",
            "template_group_used":true},"status":"pending"}}
            """#
        #expect(example == (try JSONDecoder().decode(JSONValue.self, from: Data(literal.utf8))))
        await live.stop()
    }

    private func get(_ live: LiveServer, _ path: String) async throws -> (status: Int, body: Data) {
        let answer = try await raw(live, "GET", path, token: nil)
        return (answer.status, answer.body)
    }
}
