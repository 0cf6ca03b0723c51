/// An optional field the wire always carries: `nil` is written as `null` instead of leaving the
/// key out, and a missing key still decodes as `nil` (several dialects send `"expires_at": null`).
@propertyWrapper
public struct ExplicitNull<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The field's value.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads a value or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as `nil`, as for a plain optional (the synthesized decoder asks for the wrapper by key).
    public func decode<Value>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }
}
