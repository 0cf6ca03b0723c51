import Foundation
import GatehouseFormats

/// The part of JSON Schema 2020-12 the documents use (`type`, `properties`, `required`,
/// `additionalProperties`, `items`, `enum`, `anyOf`, `$ref`, `pattern`, `minimum`/`maximum`,
/// `minLength`/`maxLength`, `maxItems`), checked against values the wire types encoded.
/// A keyword it does not know fails the check, so a document cannot outgrow its test.
struct JSONSchemaCheck {
    let document: JSONValue

    static let known: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "$ref", "pattern", "minimum", "maximum",
        "minLength", "maxLength", "maxItems", "format", "description",
    ]

    /// Problems of `value` against `schema`, each with the JSON path where it is; empty when it conforms.
    func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let schema) = schema else { return ["\(path): schema is not an object"] }
        if let unknown = schema.keys.first(where: { !Self.known.contains($0) }) { return ["\(path): unchecked keyword \(unknown)"] }
        if let ref = schema["$ref"]?.string {
            guard let target = resolve(ref) else { return ["\(path): unresolved \(ref)"] }
            return problems(value, target, at: path)
        }
        if let options = schema["anyOf"]?.array {
            let results = options.map { problems(value, $0, at: path) }
            if !results.contains(where: \.isEmpty) { return ["\(path): matches none of anyOf: \(results.flatMap { $0 })"] }
        }
        if let type = schema["type"]?.string, !Self.has(type, value) { return ["\(path): expected \(type), got \(value)"] }
        if let values = schema["enum"]?.array, !values.contains(value) { return ["\(path): \(value) is not one of \(values)"] }
        var found: [String] = []
        switch value {
        case .string(let text):
            if let pattern = schema["pattern"]?.string, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): \(text) does not match \(pattern)")
            }
            if let min = schema["minLength"]?.int, text.count < min { found.append("\(path): shorter than \(min)") }
            if let max = schema["maxLength"]?.int, text.count > max { found.append("\(path): longer than \(max)") }
            if schema["format"]?.string == "date-time", !Self.isDateTime(text) { found.append("\(path): \(text) is not a date-time") }
        case .number(let written):
            let number = written.double
            if let min = schema["minimum"]?.number, number < min { found.append("\(path): below \(min)") }
            if let max = schema["maximum"]?.number, number > max { found.append("\(path): above \(max)") }
        case .array(let items):
            if let max = schema["maxItems"]?.int, items.count > max { found.append("\(path): more than \(max) items") }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { found += problems(item, itemSchema, at: "\(path)[\(index)]") }
            }
        case .object(let object):
            let properties = schema["properties"]?.object ?? [:]
            for key in schema["required"]?.strings ?? [] where object[key] == nil { found.append("\(path): missing \(key)") }
            for (key, member) in object {
                if let propertySchema = properties[key] {
                    found += problems(member, propertySchema, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) { found.append("\(path): unexpected key \(key)") }
                    else if case .object = additional { found += problems(member, additional, at: "\(path).\(key)") }
                }
            }
        default: break
        }
        return found
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        return ref.dropFirst(2).split(separator: "/").reduce(Optional(document)) { node, name in node?.object?[String(name)] }
    }

    private static func has(_ type: String, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let number)): number.double == number.double.rounded()
        default: false
        }
    }

    private static func isDateTime(_ text: String) -> Bool {
        text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression) != nil
    }
}
