import GatehouseFormats
import Testing

/// CBOR as WebAuthn sends it, against RFC 8949 Appendix A's examples, and the hostile shapes a
/// reader must refuse without paying for what they claim.
@Suite struct CBORReaderTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var characters = Array(hex.replacingOccurrences(of: " ", with: ""))
        while characters.count >= 2 {
            result.append(UInt8(String(characters[0..<2]), radix: 16)!)
            characters.removeFirst(2)
        }
        return result
    }

    @Test(arguments: [
        ("00", CBOR.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
        ("1bffffffffffffffff", .unsigned(UInt64.max)), ("20", .negative(0)), ("3863", .negative(99)),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6449455446", .text("IETF")),
        ("62c3bc", .text("ü")), ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("a201020304", .map([CBORPair(key: .unsigned(1), value: .unsigned(2)), CBORPair(key: .unsigned(3), value: .unsigned(4))])),
        ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
        ("f7", .undefined), ("f0", .simple(16)), ("f8ff", .simple(255)), ("f93c00", .float(1.0)), ("f93e00", .float(1.5)),
        ("f97bff", .float(65504.0)), ("fa47c35000", .float(100000.0)), ("fb3ff199999999999a", .float(1.1)), ("f90001", .float(5.960464477539063e-8)),
    ])
    func rfc8949Examples(_ hex: String, _ expected: CBOR) throws {
        #expect(try CBORReader.decode(Self.bytes(hex)) == expected)
    }

    @Test func coseKeysReadByLabel() throws {
        // {1: 2, 3: -7, -1: 1, -2: h'01…', -3: h'02…'}: an EC2 P-256 key as authenticators send it.
        let key = try CBORReader.decode(Self.bytes("a5 01 02 03 26 20 01 21 5820" + String(repeating: "01", count: 32) + " 22 5820" + String(repeating: "02", count: 32)))
        #expect(key[1]?.integer == 2 && key[3]?.integer == -7 && key[-1]?.integer == 1)
        #expect(key[-2]?.byteString == [UInt8](repeating: 1, count: 32) && key[-3]?.byteString?.count == 32)
        #expect(key["fmt"] == nil && key[4] == nil)
        // A COSE key followed by more bytes: the prefix and how much of it there was.
        let (prefix, used) = try CBORReader.decodePrefix(ArraySlice(Self.bytes("a10102 a0")))
        #expect(prefix == .map([CBORPair(key: .unsigned(1), value: .unsigned(2))]) && used == 3)
    }

    @Test(arguments: [
        ("", CBORError.truncated), ("18", .truncated), ("1a0000", .truncated), ("5a7fffffff", .truncated), ("62c3", .truncated),
        ("9bffffffffffffffff", .truncated), ("bb7fffffffffffffff", .truncated), ("a10102a1", .trailingBytes), ("0000", .trailingBytes),
        ("5f4101ff", .indefiniteLength), ("9f01ff", .indefiniteLength), ("ff", .indefiniteLength), ("1c", .malformed), ("fc", .malformed),
        ("f81f", .malformed), ("62c328", .invalidUTF8), ("a2010201 03", .duplicateKey), ("a2616101616102", .duplicateKey),
    ])
    func hostileBytesAreRefused(_ hex: String, _ error: CBORError) {
        #expect(throws: error) { try CBORReader.decode(Self.bytes(hex)) }
    }

    @Test func nestingIsBoundedAndCostIsLinear() throws {
        let deep = [UInt8](repeating: 0x81, count: 17) + [0x00]
        #expect(throws: CBORError.tooDeep) { try CBORReader.decode(deep) }
        #expect(throws: CBORError.tooDeep) { try CBORReader.decode([UInt8](repeating: 0x81, count: 200_000) + [0x00]) }
        #expect(try CBORReader.decode([UInt8](repeating: 0x81, count: 16) + [0x00]) != .null)
        // A megabyte of one-byte items in one array: read once, nothing claimed is allocated ahead.
        let wide = Self.bytes("9a000f4240") + [UInt8](repeating: 0x01, count: 1_000_000)
        if case .array(let items) = try CBORReader.decode(wide) { #expect(items.count == 1_000_000) } else { Issue.record("not an array") }
        // A map of many distinct keys: one lookup each, not a comparison with every earlier key.
        var map = Self.bytes("ba000186a0")
        for number in 0..<100_000 { map += [0x1a, UInt8(number >> 24), UInt8(number >> 16 & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number & 0xFF), 0xf6] }
        #expect(try CBORReader.decode(map).pairs?.count == 100_000)
    }
}
