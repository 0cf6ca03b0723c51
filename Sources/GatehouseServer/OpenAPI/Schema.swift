import GatehouseFormats

/// A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), built in Swift beside the wire
/// type it describes. Tests validate every example, each encoded by its wire type, against it.
struct Schema: Sendable {
    var json: [String: JSONValue]

    init(_ json: [String: JSONValue]) { self.json = json }

    static let any = Schema([:])
    static let boolean = Schema(["type": .string("boolean")])
    static let number = Schema(["type": .string("number")])
    static let integer = Schema(["type": .string("integer")])
    static let string = Schema(["type": .string("string")])
    /// An instant as the wire writes it (`2026-12-01T10:00:00Z`, fractions allowed).
    static let dateTime = string(format: "date-time")

    static func integer(minimum: Int? = nil, maximum: Int? = nil) -> Schema {
        var json: [String: JSONValue] = ["type": .string("integer")]
        if let minimum { json["minimum"] = .number(Double(minimum)) }
        if let maximum { json["maximum"] = .number(Double(maximum)) }
        return Schema(json)
    }

    static func string(format: String? = nil, pattern: String? = nil, minLength: Int? = nil, maxLength: Int? = nil) -> Schema {
        var json: [String: JSONValue] = ["type": .string("string")]
        if let format { json["format"] = .string(format) }
        if let pattern { json["pattern"] = .string(pattern) }
        if let minLength { json["minLength"] = .number(Double(minLength)) }
        if let maxLength { json["maxLength"] = .number(Double(maxLength)) }
        return Schema(json)
    }

    /// One of these strings.
    static func oneOf(_ values: [String]) -> Schema {
        Schema(["type": .string("string"), "enum": .array(values.map(JSONValue.string))])
    }

    /// An object with these properties, all required but `optional`; other keys are refused
    /// unless `open` (a reply that may grow keys the client ignores).
    static func object(_ properties: KeyValuePairs<String, Schema>, optional: Set<String> = [], open: Bool = false) -> Schema {
        var json: [String: JSONValue] = ["type": .string("object")]
        json["properties"] = .object(Dictionary(properties.map { ($0.key, JSONValue.object($0.value.json)) }, uniquingKeysWith: { first, _ in first }))
        let required = properties.map(\.key).filter { !optional.contains($0) }
        if !required.isEmpty { json["required"] = .array(required.map(JSONValue.string)) }
        if !open { json["additionalProperties"] = .bool(false) }
        return Schema(json)
    }

    /// An object whose keys are free and whose values are all `values`.
    static func map(_ values: Schema) -> Schema {
        Schema(["type": .string("object"), "additionalProperties": .object(values.json)])
    }

    static func array(_ items: Schema, maxItems: Int? = nil) -> Schema {
        var json: [String: JSONValue] = ["type": .string("array"), "items": .object(items.json)]
        if let maxItems { json["maxItems"] = .number(Double(maxItems)) }
        return Schema(json)
    }

    /// A schema of the document's `components.schemas`.
    static func ref(_ name: String) -> Schema { Schema(["$ref": .string("#/components/schemas/" + name)]) }

    static func anyOf(_ schemas: [Schema]) -> Schema { Schema(["anyOf": .array(schemas.map { .object($0.json) })]) }

    /// This schema or JSON `null`.
    var orNull: Schema { .anyOf([self, Schema(["type": .string("null")])]) }

    func described(_ text: String) -> Schema {
        var copy = self
        copy.json["description"] = .string(text)
        return copy
    }
}
