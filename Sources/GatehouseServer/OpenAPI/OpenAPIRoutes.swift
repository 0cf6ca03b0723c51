import Foundation
import GatehouseHTTP
import GatehouseWire

/// `GET /openapi` (the list) and `GET /openapi/<name>.json` (one dialect's document). The
/// documents are built once, at the first request, from the Swift values in this folder.
enum OpenAPIRoutes {
    struct Index: Codable, Sendable {
        let documents: [Entry]
    }

    struct Entry: Codable, Sendable {
        let name: String
        let title: String
        let url: String
    }

    private static let served: [String: Data] = Dictionary(uniqueKeysWithValues: OpenAPIDocuments.all.map { document in
        // The documents are values built in code; failing to encode one is a programming error.
        (document.name + ".json", try! document.encoded())
    })

    static func register(on router: Router) {
        let index = Index(documents: OpenAPIDocuments.all.map { Entry(name: $0.name, title: $0.title, url: "/openapi/\($0.name).json") })
        router.on(OperatorEndpoints.openAPIIndex, inline: Anyone()) { _, _, _ in try .json(index) }
        router.on(OperatorEndpoints.openAPIDocument, inline: Anyone()) { _, context, _ in
            let name = context.parameter("document")
            guard let data = served[name] else {
                throw HTTPError(status: 404, code: "not_found", message: "no OpenAPI document \(name); GET /openapi lists them")
            }
            return .json(raw: data)
        }
    }
}
