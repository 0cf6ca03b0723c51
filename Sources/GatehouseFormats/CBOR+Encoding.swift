extension CBOR {
    /// The item's encoding with definite lengths and each head in its shortest form (as CTAP2
    /// writes them); map pairs stay in the order given.
    public var encoded: [UInt8] {
        var output: [UInt8] = []
        append(to: &output)
        return output
    }

    private func append(to output: inout [UInt8]) {
        switch self {
        case .unsigned(let value): Self.head(0, value, &output)
        case .negative(let value): Self.head(1, value, &output)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), &output)
            output += bytes
        case .text(let text):
            Self.head(3, UInt64(text.utf8.count), &output)
            output += Array(text.utf8)
        case .array(let items):
            Self.head(4, UInt64(items.count), &output)
            for item in items { item.append(to: &output) }
        case .map(let pairs):
            Self.head(5, UInt64(pairs.count), &output)
            for pair in pairs {
                pair.key.append(to: &output)
                pair.value.append(to: &output)
            }
        case .tagged(let tag, let item):
            Self.head(6, tag, &output)
            item.append(to: &output)
        case .bool(let value): output.append(value ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        case .undefined: output.append(0xF7)
        case .simple(let value):
            if value < 24 { output.append(0xE0 | value) } else { output += [0xF8, value] }
        case .float(let value):
            output.append(0xFB)
            let bits = value.bitPattern
            for shift in stride(from: 56, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
    }

    private static func head(_ major: UInt8, _ value: UInt64, _ output: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: output.append(type | UInt8(value))
        case 24...0xFF: output += [type | 24, UInt8(value)]
        case 0x100...0xFFFF: output += [type | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        case 0x10000...0xFFFF_FFFF:
            output.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        default:
            output.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    /// An integer key or value: unsigned when not negative, else major type 1.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}
