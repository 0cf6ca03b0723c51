/// Reads CBOR (RFC 8949) in one pass. Every length is checked against the bytes left before
/// anything is allocated (each element of an array takes at least one byte, each pair of a map
/// two), nesting is bounded, and indefinite lengths are refused, so the cost is linear in the
/// input's size whatever it claims.
///
/// ```swift
/// let object = try CBORReader.decode(attestationObject)       // exactly one item
/// let (key, used) = try CBORReader.decodePrefix(rest)          // a COSE key, then extensions
/// ```
public struct CBORReader {
    public static let defaultMaxDepth = 16

    private let bytes: [UInt8]
    private var index: Int
    private let end: Int
    private let maxDepth: Int

    private init(_ bytes: [UInt8], start: Int, end: Int, maxDepth: Int) {
        self.bytes = bytes
        index = start
        self.end = end
        self.maxDepth = maxDepth
    }

    /// Exactly one item: trailing bytes are refused.
    public static func decode(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(CBORError) -> CBOR {
        var reader = CBORReader(bytes, start: 0, end: bytes.count, maxDepth: maxDepth)
        let item = try reader.item(depth: 0)
        guard reader.index == reader.end else { throw .trailingBytes }
        return item
    }

    /// The item at the start of `bytes` and how many bytes it took; what follows is the caller's.
    public static func decodePrefix(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth) throws(CBORError) -> (CBOR, Int) {
        let copy = Array(bytes)
        var reader = CBORReader(copy, start: 0, end: copy.count, maxDepth: maxDepth)
        let item = try reader.item(depth: 0)
        return (item, reader.index)
    }

    private var remaining: Int { end - index }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard index < end else { throw .truncated }
        defer { index += 1 }
        return bytes[index]
    }

    /// The argument of a head whose additional information is `info` (RFC 8949 §3).
    private mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24, 25, 26, 27:
            let count = 1 << Int(info - 24)
            guard remaining >= count else { throw .truncated }
            var value: UInt64 = 0
            for _ in 0..<count { value = value << 8 | UInt64(bytes[index]); index += 1 }
            return value
        case 31: throw .indefiniteLength
        default: throw .malformed
        }
    }

    /// A length that must fit in what is left, `unit` bytes per element at least.
    private mutating func length(_ info: UInt8, unit: Int) throws(CBORError) -> Int {
        let value = try argument(info)
        guard value <= UInt64(remaining / unit) else { throw .truncated }
        return Int(value)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBOR {
        guard depth <= maxDepth else { throw .tooDeep }
        let head = try byte()
        let (major, info) = (head >> 5, head & 0x1F)
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1: return .negative(try argument(info))
        case 2:
            let count = try length(info, unit: 1)
            defer { index += count }
            return .bytes(Array(bytes[index..<index + count]))
        case 3:
            let count = try length(info, unit: 1)
            defer { index += count }
            guard let text = String(validating: bytes[index..<index + count], as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            let count = try length(info, unit: 1)
            var items: [CBOR] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try length(info, unit: 2)
            var pairs: [CBORPair] = []
            var seen = Set<CBOR>()
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                guard seen.insert(key).inserted else { throw .duplicateKey }
                pairs.append(CBORPair(key: key, value: try item(depth: depth + 1)))
            }
            return .map(pairs)
        case 6: return .tagged(try argument(info), try item(depth: depth + 1))
        default: return try simple(info)
        }
    }

    /// Major type 7: simple values and floats.
    private mutating func simple(_ info: UInt8) throws(CBORError) -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 0..<20: return .simple(info)
        case 24:
            let value = try byte()
            guard value >= 32 else { throw .malformed }
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try argument(info))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try argument(info)))))
        case 27: return .float(Double(bitPattern: try argument(info)))
        case 31: throw .indefiniteLength
        default: throw .malformed
        }
    }

    /// An IEEE 754 half-precision value (RFC 8949 Appendix D).
    static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let value: Double
        switch exponent {
        case 0: value = mantissa * 0x1p-24
        case 31: value = mantissa == 0 ? .infinity : .nan
        default: value = (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
        }
        return bits & 0x8000 != 0 ? -value : value
    }
}
