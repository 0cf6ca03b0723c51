import GatehouseHTTP
import GatehouseWire

/// One operation of a document, named by the router's own template (`/tenants/:tenantId`),
/// so that the route coverage test compares like with like.
struct Operation: Sendable {
    let method: HTTPMethod
    let path: String
    let id: String
    let summary: String
    /// Security requirements, any one of which is enough; nil: the document's; empty: none.
    var security: [[String]]? = nil
    /// Path parameters that are not plain strings.
    var pathSchemas: [String: Schema] = [:]
    var query: [Parameter] = []
    var headers: [Parameter] = []
    var body: Content? = nil
    var replies: [Reply]
    /// Extra text for readers (and the reason an operation is left out of fuzzing).
    var notes: String? = nil

    /// The OpenAPI path: `:name` becomes `{name}`, a trailing `*` becomes `{path}`.
    var openAPIPath: String { Self.openAPIPath(path) }

    static func openAPIPath(_ template: String) -> String {
        template.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : segment == "*" ? "{path}" : String(segment)
        }.reduce("") { $0 + "/" + $1 }.ifEmpty("/")
    }

    var pathParameters: [String] {
        path.split(separator: "/").compactMap { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 == "*" ? "path" : nil }
    }
}

struct Parameter: Sendable {
    let name: String
    var schema: Schema = .string
    var required = false
    var description: String? = nil
}

/// A request or reply body.
struct Content: Sendable {
    var mediaType = "application/json"
    let schema: Schema
    var example: Example? = nil

    static func json(_ schema: Schema, example: Example? = nil) -> Content { Content(schema: schema, example: example) }
}

/// A documented answer; `links` name the operations its values lead to.
struct Reply: Sendable {
    let status: String
    let description: String
    var content: Content? = nil
    var links: [Link] = []
    var headers: [String: Schema] = [:]

    static func ok(_ schema: Schema, _ example: Example? = nil, status: Int = 200, _ description: String = "Done", links: [Link] = []) -> Reply {
        Reply(status: String(status), description: description, content: .json(schema, example: example), links: links)
    }

    static func empty(status: Int = 204, _ description: String = "Done, no body") -> Reply {
        Reply(status: String(status), description: description)
    }
}

/// An OpenAPI link: the next operation, with its parameters taken from this answer
/// (runtime expressions such as `$response.body#/data/id`).
struct Link: Sendable {
    let name: String
    let operationId: String
    var parameters: [String: String] = [:]
    /// The next request's body, its values runtime expressions.
    var requestBody: [String: String]? = nil
}

extension String {
    fileprivate func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}

extension Operation {
    /// The operation of a declared endpoint: its method, path, id and summary come from the
    /// declaration, the rest (replies, parameters, notes) is the document's to say.
    init(
        _ endpoint: EndpointDescription, headers: [Parameter] = [], query: [Parameter] = [], body: Content? = nil, replies: [Reply],
        notes: String? = nil
    ) {
        self.init(
            method: HTTPMethod(endpoint.method), path: endpoint.template, id: endpoint.id, summary: endpoint.summary,
            security: Self.security[endpoint.credential], query: query, headers: headers, body: body, replies: replies, notes: notes)
    }

    /// The security requirement each credential is documented with, by the schemes' names that
    /// every document uses; a credential missing here takes its document's default.
    static let security: [Credential: [[String]]] = [
        .none: [], .session: [["accessToken"]], .apiKey: [["platformKey"]], .admin: [["adminToken"]], .workerSignature: [["workerSignature"]],
        .signedLink: [], .possessionToken: [["deviceToken"]], .accountToken: [["accountToken", "clientSecret"]],
    ]
}
