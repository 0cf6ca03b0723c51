/// Header fields in arrival order, looked up case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(String, String)] = []) {
        // Room for the headers the server adds to every response (X-Request-Id, Connection).
        var stored: [(name: String, value: String)] = []
        stored.reserveCapacity(fields.count + 2)
        for (name, value) in fields { stored.append((name, value)) }
        self.fields = stored
    }

    init(fields: [(name: String, value: String)]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of a field, or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of a field, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Adds a field, keeping any existing one of the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field of this name with one value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Field names are ASCII tokens (RFC 9110 §5.1); comparing bytes with the case bit
    /// folded avoids Foundation's locale-aware comparison on every lookup.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let a?, let b?):
                if a == b { continue }
                let lowerA = a >= 0x41 && a <= 0x5A ? a | 0x20 : a
                let lowerB = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                if lowerA != lowerB { return false }
            default: return false
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
