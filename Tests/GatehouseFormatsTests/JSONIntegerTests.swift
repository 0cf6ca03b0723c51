import Foundation
import Testing
import GatehouseFormats

/// Integers read from a number's digits: exact or nothing.
@Suite struct JSONIntegerTests {
    @Test func exactIntegersWhateverTheirSpelling() {
        let cases: [(String, Int?)] = [
            ("0", 0), ("-0", 0), ("7", 7), ("-7", -7), ("1.0", 1), ("1e2", 100), ("1E+2", 100), ("100e-2", 1), ("12.50e1", 125),
            ("0.0e99999999999999999999", 0), ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("922337203685477580.7e1", .max), ("0.9999999999999999999", nil), ("6.000000000000000001", nil), ("1.5", nil),
            ("1e-1", nil), ("5e-99999999999999999999", nil), ("9223372036854775808", nil), ("-9223372036854775809", nil),
            ("1e19", nil), ("1e99999999999999999999", nil),
        ]
        for (text, expected) in cases {
            #expect(JSONInteger.exact(text) == expected, "\(text)")
        }
    }

    /// Long runs of zeros cost one pass: a megabyte of them reads in about the time it takes
    /// to look at each once (a quadratic trim would take minutes here).
    @Test func longRunsOfZerosAreReadInOnePass() {
        let zeros = String(repeating: "0", count: 1 << 20)
        #expect(JSONInteger.exact("0." + zeros + "1") == nil)
        #expect(JSONInteger.exact("1" + zeros) == nil)
        #expect(JSONInteger.exact(zeros + "7") == 7)
        #expect(JSONInteger.exact("7." + zeros) == 7)
        #expect(JSONInteger.exact("0." + zeros) == 0)
    }

    /// Every number read keeps its text, at any depth; values compare as numbers.
    @Test func numbersKeepTheirDigits() throws {
        let body = Data(#"{"a": 0.9999999999999999999 ,"b":{"c":2},"d":[-1e2]}"#.utf8)
        guard case .object(let members) = try JSONReader.parse(body), case .number(let a)? = members["a"],
            case .number(let c)? = members["b"]?.object?["c"], case .number(let d)? = members["d"]?.array?.first
        else { Issue.record("not the expected tree"); return }
        #expect(a.text == "0.9999999999999999999" && a.double == 1 && a.exactInteger == nil)
        #expect(c.text == "2" && c.exactInteger == 2)
        #expect(d.text == "-1e2" && d.exactInteger == -100)
        #expect(JSONValue.number(1) == (try JSONReader.parse(Data("1.0".utf8))))
        #expect(JSONNumber(1e300).exactInteger == nil && JSONNumber(-3).exactInteger == -3)
    }
}
