import Foundation
import GatehouseFormats
import Testing

/// `SortedJSONEncoder` writes byte for byte what Foundation's `JSONEncoder` writes with sorted
/// keys and unescaped slashes: every case is encoded by both and compared.
@Suite struct SortedJSONEncoderTests {
    private static let foundation: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func expectSame<T: Encodable>(_ value: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = String(decoding: try SortedJSONEncoder.encode(value), as: UTF8.self)
        let theirs = String(decoding: try Self.foundation.encode(value), as: UTF8.self)
        #expect(ours == theirs, comment, sourceLocation: sourceLocation)
    }

    struct Everything: Encodable {
        var text = "a/b \"q\" \\ é 😀"
        var int = -42
        var big = UInt64.max
        var small = Int8.min
        var flag = true
        var ratio = 0.05
        var float: Float = 0.1
        var none: String? = nil
        var some: Int? = 7
        var list = [1, 2, 3]
        var empty: [String] = []
        var nested = ["zeta": 1, "alpha": 2, "Beta": 3, "_x": 4, "10": 5, "9": 6]
        var byNumber = [3: "c", 1: "a"]
        var data = Data([0, 1, 2, 250, 255])
        var url = URL(string: "https://example.com/a?b=c&d=e")!
        var decimal = Decimal(string: "12.3400")!
        var date = Date(timeIntervalSinceReferenceDate: 123.5)
        var deep = [[["k": [Inner(), Inner(label: nil)]]]]
    }

    struct Inner: Encodable {
        var label: String? = "x"
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(label, forKey: .label)
            try container.encodeNil(forKey: .gone)
        }
        enum CodingKeys: String, CodingKey { case label, gone }
    }

    @Test func everyKindOfValueIsWrittenAlike() throws {
        try expectSame(Everything())
        try expectSame([Everything(), Everything()])
    }

    @Test func everyASCIIAndSomeOtherCharactersAreEscapedAlike() throws {
        for scalar in (0..<0x80).compactMap(Unicode.Scalar.init) {
            try expectSame(["k\(Character(scalar))": "v\(Character(scalar))"], "U+\(String(scalar.value, radix: 16))")
        }
        for text in ["\u{7F}", "\u{85}", "\u{A0}", "\u{2028}\u{2029}", "\u{FEFF}", "\u{10FFFF}", "e\u{301}", ""] {
            try expectSame(text, "\(text.unicodeScalars.map { $0.value })")
        }
    }

    @Test func numbersAreWrittenAlike() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 1.5, 0.05, 0.1 + 0.2, 1e-7, 1e21, 1e22, 123456789012345680000, .pi, -2.5e-300, 5e-324,
            .greatestFiniteMagnitude, 100, 1e15, 1e16, 1e17, 9007199254740993,
        ]
        for double in doubles { try expectSame(double, "\(double)") }
        for float: Float in [0.1, 1e-10, 3.4e38, 16_777_217] { try expectSame(float, "\(float)") }
        try expectSame([Int.min, Int.max])
        try expectSame([Int16.min, Int16.max].map(Int.init) + [Int(Int32.min)])
        try expectSame([UInt8.max])
        try expectSame([Decimal(string: "0.0001")!, Decimal(string: "-12345678901234567890.5")!, Decimal(0)])
    }

    @Test func aKeyWrittenTwiceKeepsItsLastValueAndAnEmptyMemberIsAnObject() throws {
        struct Twice: Encodable {
            enum CodingKeys: String, CodingKey { case b, a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .b)
                try container.encode(2, forKey: .a)
                try container.encode(3, forKey: .b)
                var again = encoder.container(keyedBy: CodingKeys.self)
                try again.encode("last", forKey: .a)
            }
        }
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        try expectSame(Twice())
        #expect(String(decoding: try SortedJSONEncoder.encode(Twice()), as: UTF8.self) == #"{"a":"last","b":3}"#)
        try expectSame(["n": Nothing()])
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(Nothing()) }
        #expect(throws: EncodingError.self) { try Self.foundation.encode(Nothing()) }
    }

    @Test func nestedAndSuperContainersLandInTheirParents() throws {
        struct Parts: Encodable {
            enum CodingKeys: String, CodingKey { case list, inner, base }
            enum InnerKeys: String, CodingKey { case y, x }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode("one")
                var row = list.nestedContainer(keyedBy: InnerKeys.self)
                try row.encode(true, forKey: .x)
                var deeper = list.nestedUnkeyedContainer()
                try deeper.encodeNil()
                try list.encode(2.5)
                var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
                try inner.encode("y", forKey: .y)
                try ["from": "super"].encode(to: container.superEncoder(forKey: .base))
                try [9].encode(to: container.superEncoder())
                try "element".encode(to: list.superEncoder())
            }
        }
        try expectSame(Parts())
    }

    @Test func keysSortByTheirBytesPastTheirFirstEight() throws {
        let keys = [
            "abcdefghij", "abcdefgh", "abcdefghi", "abcdefgg", "abcdefgh\u{0}", "a\u{0}", "a", "ab", "", "\u{0}",
            "é", "z", "Z", "error_detail", "error_code", "error_codes", "\u{7F}", "\u{10FFFF}",
        ]
        try expectSame(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }))
    }

    /// A wide object (a dictionary in hash order) is sorted in n log n, not by insertion.
    @Test func wideObjectsSortAlike() throws {
        let keys = (0..<5000).map { "item" + String(repeating: "0", count: 5 - String($0).count) + String($0) } + (0..<50).map { "k\($0)" }
        try expectSame(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }))
    }

    @Test func optionalScalarsAreWrittenAlike() throws {
        struct Optionals: Encodable {
            var text: String? = "t", noText: String? = nil, number: Int? = -3, noNumber: Int? = nil
            var flag: Bool? = false, noFlag: Bool? = nil, nested: [String?] = ["x", nil]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(text, forKey: .text)
                try container.encode(noText, forKey: .noText)
                try container.encode(number, forKey: .number)
                try container.encode(noNumber, forKey: .noNumber)
                try container.encode(flag, forKey: .flag)
                try container.encode(noFlag, forKey: .noFlag)
                try container.encode(nested, forKey: .nested)
            }
            enum CodingKeys: String, CodingKey { case text, noText, number, noNumber, flag, noFlag, nested }
        }
        try expectSame(Optionals())
    }

    @Test func aRefusedNumberNamesItsPathAsFoundationDoes() {
        struct Holder: Encodable { var rows: [[String: Double]] = [["ok": 1, "bad": .nan]] }
        func path(_ encode: () throws -> Data) -> [String] {
            do {
                _ = try encode()
                return []
            } catch EncodingError.invalidValue(_, let context) {
                return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            } catch { return ["other error"] }
        }
        let ours = path { try SortedJSONEncoder.encode(Holder()) }
        #expect(ours == ["rows", "0", "bad"])
        #expect(ours == path { try Self.foundation.encode(Holder()) })
    }

    @Test func nonFiniteNumbersAreRefusedAlike() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(["x": value]) }
            #expect(throws: EncodingError.self) { try Self.foundation.encode(["x": value]) }
        }
    }
}
