import Foundation
import GatehouseHTTP
import GatehouseWire

/// Decoding for Gatehouse's own APIs: the body must be a JSON object whose keys are all
/// known, so a misspelt field is an error instead of being silently ignored.
enum StrictJSON {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, fields: Set<String>) throws -> T {
        guard !request.body.isEmpty else { throw HTTPError.badRequest("a JSON body is required", code: "invalid_body") }
        let object: JSONValue
        do {
            object = try JSONValue(parsing: request.body)
        } catch {
            throw HTTPError.refusedJSON(error, maxDepth: JSONReader.defaultMaxDepth)
        }
        guard case .object(let dictionary) = object else {
            throw HTTPError.badRequest("body must be a JSON object", code: "invalid_body")
        }
        if let unknown = dictionary.keys.sorted().first(where: { !fields.contains($0) }) {
            throw HTTPError.badRequest("unknown field: \(unknown)", code: "unknown_field")
        }
        return try request.decode(T.self)
    }
}
