import Foundation
import GatehouseHTTP
import GatehouseWire
import GatehouseWorkflowsEngine
import GatehouseFormats

/// Reading the workflow routes' requests: paging, filters, and execute as JSON or multipart.
enum WorkflowRequest {
    /// A whole number in a path: anything else is a 400 that names it, never an empty page.
    static func page(_ text: String, name: String) throws -> Int {
        guard text.count <= 9, text.allSatisfy(\.isASCII), let value = Int(text), value >= 0 else {
            throw DatacoveError.validation("\(name) must be a whole number")
        }
        return value
    }

    static func query(_ request: Request) throws -> CatalogueQuery {
        var query = CatalogueQuery(search: request.queryValue("search"), category: request.queryValue("category"))
        if let featured = request.queryValue("featured") {
            switch featured.lowercased() {
            case "true", "1": query.featured = true
            case "false", "0": query.featured = false
            default: throw DatacoveError.validation("featured must be true or false")
            }
        }
        return query
    }

    /// `Last-Event-ID` (or `lastEventId` in the query, for clients that cannot set headers).
    static func lastEventID(_ request: Request) throws -> Int64? {
        guard let text = request.headers["Last-Event-ID"] ?? request.queryValue("lastEventId") else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        guard trimmed.count <= 18, let seq = Int64(trimmed), seq >= 0 else { throw DatacoveError.validation("Last-Event-ID must be an event id this stream sent") }
        return seq
    }

    /// `{id, input}` as JSON, or the seed's multipart form: `id`, `input` as a JSON string, and
    /// one part per file named after its input key. Tenant and account are the caller's to set.
    static func execute(_ request: Request) throws -> ExecuteCommand {
        typealias Keys = DatacoveWire.ExecuteRequest.CodingKeys
        let key = idempotencyKey(request)
        if let form = request.multipart {
            for key in [Keys.id, Keys.input] where form.parts.filter({ $0.name == key.stringValue }).count > 1 {
                throw DatacoveError.validation("\(key.stringValue) appears more than once")
            }
            guard let id = form.field(Keys.id.stringValue), !id.isEmpty else { throw DatacoveError.validation("id is required") }
            let inputText = form.field(Keys.input.stringValue) ?? "{}"
            guard case .object(let input)? = try? JSONValue(parsing: Data(inputText.utf8)) else {
                throw DatacoveError.validation("input must be a JSON object of the non-file inputs")
            }
            let known: Set<String> = [Keys.id.stringValue, Keys.input.stringValue]
            if let stray = form.parts.first(where: { $0.file == nil && !known.contains($0.name) }) {
                throw DatacoveError.validation("\(stray.name) must be sent inside input, or as a file")
            }
            let files = form.parts.compactMap { part in
                part.file.map { UploadedFile(key: part.name, filename: part.filename ?? "", url: $0) }
            }
            return ExecuteCommand(tenantID: "", accountID: "", workflowID: id, input: input, files: files, idempotencyKey: key)
        }
        let body = try DatacoveBody.decode(DatacoveWire.ExecuteRequest.self, request, unknownKeys: .refuse)
        try DatacoveBody.required((body.id, Keys.id))
        let id = body.id
        let input = body.input
        return ExecuteCommand(tenantID: "", accountID: "", workflowID: id, input: input, idempotencyKey: key)
    }

    /// The header as RFC 8941 writes it (`"…"`) or bare.
    static func idempotencyKey(_ request: Request) -> String? {
        guard var key = request.headers["Idempotency-Key"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
        return key
    }
}
