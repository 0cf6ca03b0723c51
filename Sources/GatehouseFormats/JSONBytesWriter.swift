/// Writes an encoded tree as compact JSON: members sorted by their keys' UTF-8 bytes (a key
/// written twice keeps its last value), strings escaped as Foundation's `JSONEncoder` escapes
/// them without escaping slashes.
enum JSONBytesWriter {
    static func write(_ value: EncodedJSON, to out: inout [UInt8]) {
        switch value {
        case .string(let string): writeString(string, to: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .bool(let bool): out.append(contentsOf: bool ? trueBytes : falseBytes)
        case .null: out.append(contentsOf: nullBytes)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            let members = sorted(object.members)
            for (index, member) in members.enumerated() {
                // Of equal keys (sorted stably, in the order written) only the last is kept.
                if index + 1 < members.count, members[index + 1].key == member.key { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Stable: members of one key keep the order they were written in.
    private static func sorted(_ members: [(key: String, value: EncodedJSON)]) -> [(key: String, value: EncodedJSON)] {
        var inOrder = true
        for index in members.indices.dropFirst() where !precedes(members[index - 1].key, members[index].key) {
            inOrder = false
            break
        }
        if inOrder { return members }
        return members.enumerated().sorted { a, b in
            a.element.key == b.element.key ? a.offset < b.offset : precedes(a.element.key, b.element.key)
        }.map(\.element)
    }

    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
