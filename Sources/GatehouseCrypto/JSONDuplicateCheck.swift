/// Checks that bytes are one well-formed JSON text (RFC 8259) in which no object names a member
/// twice, at any depth.
///
/// JSON parsers disagree on duplicate names (first wins, last wins, error), so a signed document
/// that repeats one can say two things to two readers; RFC 7515 §4 and RFC 7519 §4 require a
/// JOSE header or claims set with duplicates to be refused. Foundation's parsers keep one of the
/// values silently, so signed JSON is run through this check before they see it.
///
/// One pass, no backtracking: cost is linear in the input (each object's names go into one hash
/// set, and Swift seeds its hashing per process, so crafted names cannot force collisions), and
/// nesting deeper than `maxDepth` is refused before it costs stack.
public enum JSONStructure {
    /// The nesting limit `check` uses unless told otherwise; far beyond any JOSE document.
    public static let defaultMaxDepth = 64

    /// Throws `JSONStructureError` unless `bytes` is one JSON value, optionally surrounded by
    /// whitespace, with distinct member names in every object and at most `maxDepth` nested
    /// objects and arrays.
    ///
    /// Names compare after decoding escapes (`"b\u0075ndleId"` is `"bundleId"`, surrogate pairs
    /// included) and as Swift strings, the way the decoders that read the document afterwards
    /// compare them. A lone surrogate escape or invalid UTF-8 in a name is malformed.
    public static func check(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws {
        var scanner = JSONScanner(bytes: Array(bytes), maxDepth: maxDepth)
        scanner.skipWhitespace()
        try scanner.value(depth: 0)
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw scanner.malformed("trailing bytes after the JSON value") }
    }
}

/// Why `JSONStructure.check` refused a document.
public enum JSONStructureError: Error, Equatable, Sendable {
    /// Not well-formed JSON; `offset` is where reading stopped.
    case malformed(offset: Int, reason: String)
    /// An object names `name` twice.
    case duplicateMember(name: String)
    /// Objects and arrays nest deeper than the limit.
    case tooDeep(limit: Int)
}

/// The cursor behind `JSONStructure.check`.
private struct JSONScanner {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    var atEnd: Bool { index == bytes.count }

    func malformed(_ reason: String) -> JSONStructureError { .malformed(offset: index, reason: reason) }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    mutating func value(depth: Int) throws {
        guard index < bytes.count else { throw malformed("a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try string(decoding: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    mutating func object(depth: Int) throws {
        guard depth <= maxDepth else { throw JSONStructureError.tooDeep(limit: maxDepth) }
        index += 1  // {
        var names = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw malformed("a member name must be a string") }
            let name = try string(decoding: true)!
            guard names.insert(name).inserted else { throw JSONStructureError.duplicateMember(name: name) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw malformed("':' expected after a member name") }
            index += 1
            skipWhitespace()
            try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw malformed("unterminated object") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw malformed("',' or '}' expected in an object") }
            index += 1
            skipWhitespace()
        }
    }

    mutating func array(depth: Int) throws {
        guard depth <= maxDepth else { throw JSONStructureError.tooDeep(limit: maxDepth) }
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw malformed("unterminated array") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw malformed("',' or ']' expected in an array") }
            index += 1
            skipWhitespace()
        }
    }

    /// Reads a string starting at its opening quote; with `decoding`, returns its decoded text
    /// (only names are decoded: other strings are checked for structure and skipped).
    mutating func string(decoding: Bool) throws -> String? {
        index += 1  // opening quote
        var decoded: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard decoding else { return nil }
                guard let text = String(validating: decoded, as: UTF8.self) else { throw malformed("a member name is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw malformed("unterminated escape") }
                let escape = bytes[index]
                index += 1
                if let plain = Self.simpleEscape(escape) {
                    if decoding { decoded.append(plain) }
                } else if escape == UInt8(ascii: "u") {
                    let scalar = try unicodeEscape()
                    if decoding { decoded.append(contentsOf: Array(String(Character(scalar)).utf8)) }
                } else {
                    throw malformed("unknown escape")
                }
            case 0x00..<0x20:
                throw malformed("a control character must be escaped in a string")
            default:
                if decoding { decoded.append(byte) }
            }
        }
        throw malformed("unterminated string")
    }

    /// Reads the four hex digits after `\u` (and a second `\uXXXX` for a surrogate pair).
    mutating func unicodeEscape() throws -> Unicode.Scalar {
        let first = try hexQuad()
        if (0xD800..<0xDC00).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw malformed("a high surrogate escape must be followed by a low one")
            }
            index += 2
            let second = try hexQuad()
            guard (0xDC00..<0xE000).contains(second) else { throw malformed("a high surrogate escape must be followed by a low one") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else { throw malformed("a lone low surrogate escape") }
        return scalar
    }

    mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw malformed("\\u needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { throw malformed("\\u needs four hex digits") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    /// The byte a one-letter escape stands for (`\n` is 0x0A), or nil for `u` and unknown letters.
    static func simpleEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw malformed("unknown literal")
        }
        index += expected.count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    mutating func number() throws {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            index = start
            throw malformed("a value is expected")
        }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw malformed("a digit must follow '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw malformed("a digit must follow the exponent") }
            skipDigits()
        }
    }

    mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
