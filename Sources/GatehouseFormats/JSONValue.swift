/// Any JSON value, decoded without losing the difference between `true` and `1`.
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Containers are tried first: a failed attempt on a container costs far more than one
    /// on a scalar. Request bodies are read with `JSONValue(parsing:)` instead, which is
    /// linear in any input; this path serves values nested in `Codable` types.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .number(JSONNumber(try container.decode(Double.self)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value.double)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var string: String? { if case .string(let value) = self { return value } else { return nil } }
    public var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    /// A number, whole or not.
    public var number: Double? { if case .number(let value) = self { return value.double } else { return nil } }
    /// A whole number below 10^15 in magnitude, read exactly from its digits.
    public var int: Int? {
        guard case .number(let value) = self, let exact = value.exactInteger, abs(exact) < 1_000_000_000_000_000 else { return nil }
        return exact
    }
    /// A number made from a `Double` (one read from JSON keeps its text: `JSONNumber`).
    public static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    public var object: [String: JSONValue]? { if case .object(let value) = self { return value } else { return nil } }
    public var array: [JSONValue]? { if case .array(let value) = self { return value } else { return nil } }
    public var strings: [String]? {
        guard case .array(let items) = self else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }
}
