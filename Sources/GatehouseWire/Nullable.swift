import Foundation

/// A member of a patch that can be cleared: as `Nullable<V>?`, absent (`nil`) keeps the value,
/// JSON `null` (`.null`) clears it and a value (`.value`) sets it.
///
/// ```swift
/// struct Patch: Codable { var callbackUrl: Nullable<String>? }
/// // {}                      -> callbackUrl == nil      (keep)
/// // {"callbackUrl": null}   -> callbackUrl == .null    (clear)
/// // {"callbackUrl": "https://…"} -> .value("https://…") (set)
/// ```
public enum Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    case null
    case value(Value)

    /// The value, or nil when cleared.
    public var wrapped: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// `.null` for nil, else the value.
    public init(_ value: Value?) { self = value.map(Self.value) ?? .null }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .value(let value): try container.encode(value)
        }
    }
}

extension KeyedDecodingContainer {
    /// Synthesized `Decodable` reads an optional member with `decodeIfPresent`, which takes
    /// `null` for absent; this overload tells them apart for `Nullable`, whose own
    /// `init(from:)` reads the `null`.
    public func decodeIfPresent<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value>? {
        guard contains(key) else { return nil }
        return try decode(Nullable<Value>.self, forKey: key)
    }
}
