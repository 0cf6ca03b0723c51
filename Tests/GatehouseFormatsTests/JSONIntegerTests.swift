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

    /// Only the outermost object's own members keep their text; the value reads as before.
    @Test func theOutermostMembersKeepTheirDigits() throws {
        let body = Data(#"{"a": 0.9999999999999999999 ,"b":{"c":2},"d":[3],"e":"4","f":-1e2}"#.utf8)
        let (value, numbers) = try JSONReader.parseKeepingNumbers(body)
        #expect(value == (try JSONReader.parse(body)))
        #expect(numbers == ["a": "0.9999999999999999999", "f": "-1e2"])
        #expect(try JSONReader.parseKeepingNumbers(Data("[1]".utf8)).numbers.isEmpty)
    }
}
