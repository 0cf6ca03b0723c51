import Foundation

/// The members of each object a decoding read, and which of them a container asked for, so
/// that the members nobody asked for can be refused once the whole type is read.
final class KeyLedger {
    private struct Entry {
        let path: [String]
        let keys: [String]
        var asked: Set<String> = []
    }

    let refusing: Bool
    /// Whether a member that is `null` reads as absent; if not, only a type that reads `null`
    /// itself (`Nullable`) takes it, and an optional member of another type refuses it.
    let nullIsAbsent: Bool
    private var entries: [Entry] = []
    private var byPath: [[String]: Int] = [:]

    init(refusing: Bool, nullIsAbsent: Bool = true) {
        self.refusing = refusing
        self.nullIsAbsent = nullIsAbsent
    }

    /// The object at `path` is being read; its members start out unasked.
    func open(_ path: [String], keys: Dictionary<String, JSONValue>.Keys) {
        guard refusing, byPath[path] == nil else { return }
        byPath[path] = entries.count
        entries.append(Entry(path: path, keys: keys.sorted()))
    }

    func asked(_ key: String, at path: [String]) {
        guard refusing, let index = byPath[path] else { return }
        entries[index].asked.insert(key)
    }

    /// How many objects are open: a read that fails and is caught (`try?`) rolls back to it.
    var mark: Int { entries.count }

    func rollBack(to mark: Int) {
        guard refusing, entries.count > mark else { return }
        for entry in entries[mark...] { byPath[entry.path] = nil }
        entries.removeSubrange(mark...)
    }

    /// The path of the first member, in reading order and then by name, that nobody asked for.
    func firstUnknown() -> [String]? {
        for entry in entries {
            if let key = entry.keys.first(where: { !entry.asked.contains($0) }) { return entry.path + [key] }
        }
        return nil
    }
}

/// A `Decoder` over one value of a JSON tree.
struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let ledger: KeyLedger
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var names: [String] { BodyDecodingError.names(codingPath) }

    func failure(_ problem: BodyDecodingError.Problem) -> BodyDecodingError { BodyDecodingError(path: names, problem: problem) }

    /// The value as `T`: scalars read here, `JSONValue` taken whole, anything else by its own
    /// `init(from:)`, whose objects are rolled back from the ledger when it fails.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if let scalar = try scalar(T.self) { return scalar }
        let mark = ledger.mark
        do {
            return try T(from: self)
        } catch {
            ledger.rollBack(to: mark)
            throw error
        }
    }

    private func scalar<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch(.string) }
            return (text as! T)
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch(.boolean) }
            return (flag as! T)
        case is Double.Type:
            guard case .number(let number) = value else { throw mismatch(.number) }
            return (number.double as! T)
        case is Float.Type:
            guard case .number(let number) = value else { throw mismatch(.number) }
            return (Float(number.double) as! T)
        case is Int.Type: return try integer(Int.self) as? T
        case is Int64.Type: return try integer(Int64.self) as? T
        case is Int32.Type: return try integer(Int32.self) as? T
        case is Int16.Type: return try integer(Int16.self) as? T
        case is Int8.Type: return try integer(Int8.self) as? T
        case is UInt.Type: return try integer(UInt.self) as? T
        case is UInt64.Type: return try integer(UInt64.self) as? T
        case is UInt32.Type: return try integer(UInt32.self) as? T
        case is UInt16.Type: return try integer(UInt16.self) as? T
        case is UInt8.Type: return try integer(UInt8.self) as? T
        default: return nil
        }
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let number) = value else { throw mismatch(.integer) }
        guard let exact = number.exactInteger, let fitted = I(exactly: exact) else { throw failure(.notInteger) }
        return fitted
    }

    func mismatch(_ expected: BodyDecodingError.JSONKind) -> BodyDecodingError {
        failure(value == .null ? .missing : .wrongType(expected: expected))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch(.object) }
        ledger.open(names, keys: members.keys)
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch(.array) }
        return TreeUnkeyedContainer(items: items, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { TreeSingleValueContainer(decoder: self) }

    func child(_ value: JSONValue, _ key: any CodingKey) -> TreeDecoder {
        TreeDecoder(value: value, codingPath: codingPath + [key], ledger: ledger)
    }
}

/// An array index as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "[\(intValue ?? 0)]" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let decoder: TreeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.sorted().compactMap { Key(stringValue: $0) } }

    private func asked(_ key: Key) { decoder.ledger.asked(key.stringValue, at: decoder.names) }

    func contains(_ key: Key) -> Bool {
        asked(key)
        return members[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        asked(key)
        guard let value = members[key.stringValue] else { return true }
        guard value == .null else { return false }
        // `decodeIfPresent` of a plain optional asks this first: `null` is not its absence here.
        guard decoder.ledger.nullIsAbsent else { throw BodyDecodingError(path: decoder.names + [key.stringValue], problem: .null) }
        return true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        asked(key)
        guard let value = members[key.stringValue] else {
            throw BodyDecodingError(path: decoder.names + [key.stringValue], problem: .missing)
        }
        return try decoder.child(value, key).read(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        asked(key)
        return try decoder.child(members[key.stringValue] ?? .null, key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        asked(key)
        return try decoder.child(members[key.stringValue] ?? .null, key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        asked(key)
        return decoder.child(members[key.stringValue] ?? .null, key)
    }
}

struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let decoder: TreeDecoder
    var currentIndex = 0

    init(items: [JSONValue], decoder: TreeDecoder) {
        self.items = items
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The decoder of the current element; `advance` moves past it once it was read, so a
    /// read that failed can be tried again as another type, as with `JSONDecoder`.
    private func current() throws -> TreeDecoder {
        guard !isAtEnd else { throw BodyDecodingError(path: decoder.names + ["[\(currentIndex)]"], problem: .missing) }
        return decoder.child(items[currentIndex], IndexKey(currentIndex))
    }

    private mutating func advance<T>(_ value: T) -> T {
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { advance(try current().read(T.self)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        advance(try current().container(keyedBy: NestedKey.self))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { advance(try current().unkeyedContainer()) }

    mutating func superDecoder() throws -> any Decoder { advance(try current()) }
}

struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TreeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.read(T.self) }
}
