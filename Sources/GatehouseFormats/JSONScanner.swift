/// The recursive-descent core of `JSONReader`. Recursion is bounded by `maxDepth`, every
/// byte is looked at a constant number of times, and member names are hashed once each.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// False: check only, and give `.null` for every value.
    let build: Bool
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, build: Bool) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.build = build
    }

    mutating func document() throws(JSONReadError) -> JSONValue {
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw .malformed(offset: index) }
        return value
    }

    private mutating func value(depth: Int) throws(JSONReadError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw .malformed(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            let text = try string(keep: build)
            return build ? .string(text) : .null
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw .malformed(offset: index)
        }
    }

    private mutating func object(depth: Int) throws(JSONReadError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(offset: index) }
        index += 1
        var members: [String: JSONValue] = [:]
        var names = Set<String>()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw .malformed(offset: index) }
            let name = try string(keep: true)
            guard names.insert(name).inserted else { throw .duplicateName(name) }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw .malformed(offset: index) }
            index += 1
            skipWhitespace()
            let member = try value(depth: depth)
            if build { members[name] = member }
            skipWhitespace()
            guard index < bytes.count else { throw .malformed(offset: index) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw .malformed(offset: index) }
            index += 1
            return build ? .object(members) : .null
        }
    }

    private mutating func array(depth: Int) throws(JSONReadError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(offset: index) }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return build ? .array(items) : .null }
        while true {
            let item = try value(depth: depth)
            if build { items.append(item) }
            skipWhitespace()
            guard index < bytes.count else { throw .malformed(offset: index) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw .malformed(offset: index) }
            index += 1
            return build ? .array(items) : .null
        }
    }

    /// Reads a string from its opening quote; `keep` false checks it without keeping it.
    private mutating func string(keep: Bool) throws(JSONReadError) -> String {
        let start = index
        index += 1
        var decoded: [UInt8] = []
        var sawNonASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard keep || sawNonASCII else { return "" }
                // Raw bytes must be UTF-8; escapes were written as UTF-8 already.
                guard let text = String(validating: decoded, as: UTF8.self) else { throw .malformed(offset: start) }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &decoded)
            case 0x00..<0x20:
                throw .malformed(offset: index)
            case 0x7F:
                throw .controlCharacter
            default:
                if byte >= 0x80 {
                    sawNonASCII = true
                    // C1 controls (U+0080–U+009F) are encoded C2 80 … C2 9F.
                    if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { throw .controlCharacter }
                }
                if keep || sawNonASCII { decoded.append(byte) }
                index += 1
            }
        }
        throw .malformed(offset: start)
    }

    private mutating func escape(into decoded: inout [UInt8]) throws(JSONReadError) {
        guard index < bytes.count else { throw .malformed(offset: index) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "b"), UInt8(ascii: "f"): throw .controlCharacter
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw .malformed(offset: index)
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw .malformed(offset: index) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw .malformed(offset: index)
            }
            if scalar < 0x20, scalar != 0x09, scalar != 0x0A, scalar != 0x0D { throw .controlCharacter }
            if (0x7F...0x9F).contains(scalar) { throw .controlCharacter }
            guard let unicode = Unicode.Scalar(scalar) else { throw .malformed(offset: index) }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw .malformed(offset: index - 1)
        }
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .malformed(offset: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .malformed(offset: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(JSONReadError) -> JSONValue {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else {
            guard digits() > 0 else { throw .malformed(offset: index) }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digits() > 0 else { throw .malformed(offset: index) }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw .malformed(offset: index) }
        }
        // Checked in both passes, so that what the edge accepts every reader can read.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .numberOutOfRange }
        return build ? .number(JSONNumber(text: text, double: value)) : .null
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .malformed(offset: index) }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw .malformed(offset: index + offset)
        }
        index += count
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
