import Foundation
import GatehouseHTTP
import GatehouseFormats

/// Gatehouse's own OpenAPI 3.1 description of one dialect, served at `/openapi/<name>.json`.
struct Document: Sendable {
    let name: String
    let title: String
    let description: String
    /// Security schemes by name (OpenAPI's objects); `security` lists the default
    /// requirements, any one of which is enough, each naming the schemes it needs together.
    var securitySchemes: [String: JSONValue] = [:]
    var security: [[String]] = []
    /// The dialect's error envelope: every operation documents it for its 4xx answers.
    let error: Schema
    var schemas: [String: Schema] = [:]
    var operations: [Operation]

    func json() -> JSONValue {
        var paths: [String: [String: JSONValue]] = [:]
        for operation in operations {
            paths[operation.openAPIPath, default: [:]][operation.method.rawValue.lowercased()] = operationJSON(operation)
        }
        var components: [String: JSONValue] = ["schemas": .object(schemas.mapValues { .object($0.json) })]
        if !securitySchemes.isEmpty { components["securitySchemes"] = .object(securitySchemes) }
        return .object([
            "openapi": .string("3.1.0"),
            "info": .object(["title": .string(title), "version": .string("1"), "description": .string(description)]),
            "jsonSchemaDialect": .string("https://spec.openapis.org/oas/3.1/dialect/base"),
            "paths": .object(paths.mapValues(JSONValue.object)),
            "components": .object(components),
        ])
    }

    private func operationJSON(_ operation: Operation) -> JSONValue {
        var json: [String: JSONValue] = ["operationId": .string(operation.id), "summary": .string(operation.summary)]
        if let notes = operation.notes { json["description"] = .string(notes) }
        var parameters: [JSONValue] = operation.pathParameters.map { name in
            .object(["name": .string(name), "in": .string("path"), "required": .bool(true), "schema": .object((operation.pathSchemas[name] ?? .string).json)])
        }
        parameters += operation.query.map { Self.parameterJSON($0, in: "query") }
        parameters += operation.headers.map { Self.parameterJSON($0, in: "header") }
        if !parameters.isEmpty { json["parameters"] = .array(parameters) }
        if let body = operation.body {
            json["requestBody"] = .object(["required": .bool(true), "content": Self.contentJSON(body)])
        }
        var responses: [String: JSONValue] = [:]
        for reply in operation.replies {
            var item: [String: JSONValue] = ["description": .string(reply.description)]
            if let content = reply.content { item["content"] = Self.contentJSON(content) }
            if !reply.links.isEmpty { item["links"] = .object(Dictionary(uniqueKeysWithValues: reply.links.map { ($0.name, Self.linkJSON($0)) })) }
            if !reply.headers.isEmpty { item["headers"] = .object(reply.headers.mapValues { .object(["schema": .object($0.json)]) }) }
            responses[reply.status] = .object(item)
        }
        if responses["4XX"] == nil {
            responses["4XX"] = .object(["description": .string("Refused, in the dialect's error envelope"), "content": Self.contentJSON(.json(error))])
        }
        json["responses"] = .object(responses)
        let security = operation.security ?? self.security
        json["security"] = .array(security.map { names in .object(Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.array([])) })) })
        return .object(json)
    }

    private static func parameterJSON(_ parameter: Parameter, in location: String) -> JSONValue {
        var json: [String: JSONValue] = [
            "name": .string(parameter.name), "in": .string(location), "required": .bool(parameter.required), "schema": .object(parameter.schema.json),
        ]
        if let description = parameter.description { json["description"] = .string(description) }
        return .object(json)
    }

    private static func contentJSON(_ content: Content) -> JSONValue {
        var media: [String: JSONValue] = ["schema": .object(content.schema.json)]
        if let example = content.example { media["example"] = example.value }
        return .object([content.mediaType: .object(media)])
    }

    private static func linkJSON(_ link: Link) -> JSONValue {
        var json: [String: JSONValue] = ["operationId": .string(link.operationId)]
        if !link.parameters.isEmpty { json["parameters"] = .object(link.parameters.mapValues(JSONValue.string)) }
        if let body = link.requestBody { json["requestBody"] = .object(body.mapValues(JSONValue.string)) }
        return .object(json)
    }

    /// The document's bytes as served: sorted keys, so every build serves the same bytes.
    func encoded() throws -> Data { try JSONEncoder.gatehouse.encode(json()) }
}
