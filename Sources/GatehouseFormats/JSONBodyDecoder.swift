import Foundation

/// Reads a `Decodable` type out of a JSON tree that `JSONReader` built, so that a request body
/// is parsed once, by the linear-time reader, and never again by `JSONDecoder`.
///
/// Integers are read from their digits (`JSONNumber.exactInteger`), so `1.0` is 1 while
/// `0.9999999999999999999` and `9223372036854775808` are refused rather than rounded. A member
/// that is `null` reads as absent, unless `nulls: .onlyWhereNullable` (then only a member that
/// reads `null` itself, a `Nullable`, takes it). With `unknownKeys: .refuse`, a member that no
/// container of the type asked for is an error naming it; a value decoded as `JSONValue` is taken whole.
///
/// ```swift
/// struct Grant: Decodable { let credits: Int; let note: String? }
/// let grant = try JSONBodyDecoder(unknownKeys: .refuse).decode(Grant.self, from: Data(#"{"credits":5}"#.utf8))
/// ```
public struct JSONBodyDecoder: Sendable {
    /// What a member that the type does not read means.
    public enum UnknownKeys: Sendable { case refuse, ignore }
    /// What a member that is `null` means: absent (as `JSONDecoder` reads it), or a value that
    /// only a field that can be cleared (`Nullable`) takes, so a patch cannot "clear" a field
    /// that has no empty value and be answered as if it had kept it.
    public enum Nulls: Sendable { case absent, onlyWhereNullable }

    public var unknownKeys: UnknownKeys
    public var nulls: Nulls

    public init(unknownKeys: UnknownKeys, nulls: Nulls = .absent) {
        self.unknownKeys = unknownKeys
        self.nulls = nulls
    }

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(BodyDecodingError) -> T {
        let ledger = KeyLedger(refusing: unknownKeys == .refuse, nullIsAbsent: nulls == .absent)
        let decoded: T
        do {
            decoded = try TreeDecoder(value: value, codingPath: [], ledger: ledger).read(T.self)
        } catch let error as BodyDecodingError {
            throw error
        } catch let error as DecodingError {
            throw BodyDecodingError(error)
        } catch {
            throw BodyDecodingError(path: [], problem: .invalid(String(describing: error)))
        }
        if let unknown = ledger.firstUnknown() { throw BodyDecodingError(path: unknown, problem: .unknownKey) }
        return decoded
    }

    /// Reads `bytes` with `JSONReader` (its limits and refusals) and decodes the tree.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: Data) throws(BodyDecodingError) -> T {
        let value: JSONValue
        do { value = try JSONReader.parse(bytes) } catch { throw BodyDecodingError(path: [], problem: .unreadable(error)) }
        return try decode(T.self, from: value)
    }
}

/// Why a body could not be read into a type: where, and what was wrong there. Each dialect
/// turns it into its own envelope and words.
public struct BodyDecodingError: Error, Equatable, Sendable {
    public enum Problem: Equatable, Sendable {
        /// No body where one is required.
        case empty
        /// Not JSON by `JSONReader`'s rules.
        case unreadable(JSONReadError)
        /// A required member is absent or `null`.
        case missing
        /// `null` on a member that cannot be cleared (with `nulls: .onlyWhereNullable`).
        case null
        /// A value of another JSON type than `expected`.
        case wrongType(expected: JSONKind)
        /// A number where an integer of the field's type was wanted, that is not one.
        case notInteger
        /// A member the type does not read, where unknown members are refused.
        case unknownKey
        /// The type's own check refused the value (an enumeration's unknown case, say).
        case invalid(String)
    }

    /// The kinds of JSON value a field can want.
    public enum JSONKind: String, Sendable { case object, array, string, number, integer, boolean }

    /// Member names and array indexes (`[0]`) from the top.
    public let path: [String]
    public let problem: Problem

    public init(path: [String], problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The path as one name, `a.b.[0]`, or `body` for the body itself.
    public var field: String { path.isEmpty ? "body" : path.joined(separator: ".") }

    /// The member's own name: the last name of the path that is not an index.
    public var member: String? { path.last(where: { !$0.hasPrefix("[") }) }

    /// Where `JSONDecoder` (or a type's own check) stopped, in the same terms.
    public init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context): self.init(path: Self.names(context.codingPath), problem: .wrongType(expected: Self.kind(of: type)))
        case .valueNotFound(_, let context): self.init(path: Self.names(context.codingPath), problem: .missing)
        case .keyNotFound(let key, let context): self.init(path: Self.names(context.codingPath + [key]), problem: .missing)
        case .dataCorrupted(let context): self.init(path: Self.names(context.codingPath), problem: .invalid(context.debugDescription))
        @unknown default: self.init(path: [], problem: .invalid("unreadable"))
        }
    }

    /// Member names as they are; array indexes as `[n]` (ours, and `JSONDecoder`'s "Index n"),
    /// so a member named "0" is not taken for an index.
    static func names(_ path: [any CodingKey]) -> [String] {
        path.map { key in
            if let index = key.intValue, key is IndexKey || key.stringValue == "Index \(index)" { return "[\(index)]" }
            return key.stringValue
        }
    }

    /// The JSON kind a Swift type is read from.
    static func kind(of type: Any.Type) -> JSONKind {
        switch type {
        case is String.Type, is Substring.Type: .string
        case is Bool.Type: .boolean
        case is any FixedWidthInteger.Type: .integer
        case is any BinaryFloatingPoint.Type: .number
        case is any Collection.Type: .array
        default: .object
        }
    }
}
