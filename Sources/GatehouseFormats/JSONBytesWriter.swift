/// Writes an encoded tree as compact JSON: members sorted by their keys' UTF-8 bytes (a key
/// written twice keeps its last value), strings escaped as Foundation's `JSONEncoder` escapes
/// them without escaping slashes. A tree is written once: its objects' members are moved out
/// as they are sorted.
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
            // The tree is written once: its members are moved out, so sorting copies nothing.
            var members = object.members
            object.members = []
            sortStably(&members)
            out.append(UInt8(ascii: "{"))
            var first = true
            for index in members.indices {
                // Of equal keys (sorted stably, in the order written) only the last is kept.
                if index + 1 < members.count, !precedes(members[index], members[index + 1]) { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(members[index].key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(members[index].value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Sorts by the keys' UTF-8 bytes, stably: members of one key keep the order they were
    /// written in. A reply's objects are small and most arrive nearly in order: an insertion
    /// sort in place. A wide object (a dictionary, in hash order) is sorted in n log n.
    private static func sortStably(_ members: inout [EncodedMember]) {
        guard members.count > 16 else {
            for end in members.indices.dropFirst() {
                var slot = end
                while slot > 0, precedes(members[slot], members[slot - 1]) {
                    members.swapAt(slot - 1, slot)
                    slot -= 1
                }
            }
            return
        }
        if zip(members, members.dropFirst()).allSatisfy({ !precedes($1, $0) }) { return }
        members = members.enumerated().sorted { a, b in
            precedes(a.element, b.element) || (!precedes(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }

    /// By the keys' first eight bytes, then (a key shorter than eight pads with zeros, as a
    /// shorter key sorts first) by the whole keys.
    private static func precedes(_ a: EncodedMember, _ b: EncodedMember) -> Bool {
        if a.keyPrefix != b.keyPrefix { return a.keyPrefix < b.keyPrefix }
        return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ string: String, to out: inout [UInt8]) {
        var string = string
        out.append(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            // Runs that need no escape are copied whole; most strings are one such run.
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                writeEscaped(byte, to: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func writeEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        default:
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
