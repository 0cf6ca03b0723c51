import Foundation
import GatehouseFormats
import GatehouseWire
import Testing

/// A patch member tells absent (keep), `null` (clear) and a value (set) apart, through the
/// server's reader and through Foundation's decoder alike, and writes them back the same way.
@Suite struct NullableTests {
    struct Patch: Codable, Equatable {
        var callbackUrl: Nullable<String>?
        var dailyLimit: Nullable<Int>?
    }

    static let cases: [(String, Patch)] = [
        ("{}", Patch()),
        (#"{"callbackUrl":null}"#, Patch(callbackUrl: .null)),
        (#"{"callbackUrl":"https://a.example","dailyLimit":5}"#, Patch(callbackUrl: .value("https://a.example"), dailyLimit: .value(5))),
        (#"{"dailyLimit":null}"#, Patch(dailyLimit: .null)),
    ]

    @Test func absentNullAndAValueReadApart() throws {
        for (json, expected) in Self.cases {
            #expect(try JSONBodyDecoder(unknownKeys: .refuse).decode(Patch.self, from: Data(json.utf8)) == expected)
            #expect(try JSONDecoder().decode(Patch.self, from: Data(json.utf8)) == expected)
        }
    }

    @Test func theyAreWrittenAsTheyWereRead() throws {
        for (json, patch) in Self.cases {
            #expect(String(decoding: try SortedJSONEncoder.encode(patch), as: UTF8.self) == json)
        }
    }

    @Test func onlyANullableTakesNullWhereNullsAreNotAbsent() throws {
        struct Mixed: Codable, Equatable {
            var name: String?
            var dailyLimit: Nullable<Int>?
        }
        let strict = JSONBodyDecoder(unknownKeys: .refuse, nulls: .onlyWhereNullable)
        #expect(try strict.decode(Mixed.self, from: Data(#"{"dailyLimit":null}"#.utf8)) == Mixed(dailyLimit: .null))
        #expect(try strict.decode(Mixed.self, from: Data(#"{"name":"a"}"#.utf8)) == Mixed(name: "a"))
        #expect(throws: BodyDecodingError(path: ["name"], problem: .null)) {
            try strict.decode(Mixed.self, from: Data(#"{"name":null,"dailyLimit":null}"#.utf8))
        }
        // The default, as Foundation reads it: `null` on a plain optional is its absence.
        let lenient = try JSONBodyDecoder(unknownKeys: .refuse).decode(Mixed.self, from: Data(#"{"name":null,"dailyLimit":null}"#.utf8))
        #expect(lenient == Mixed(dailyLimit: .null))
        #expect(try JSONDecoder().decode(Mixed.self, from: Data(#"{"name":null,"dailyLimit":null}"#.utf8)) == lenient)
    }

    @Test func aValueOfTheWrongTypeIsRefusedWhereItIs() {
        #expect(throws: BodyDecodingError(path: ["dailyLimit"], problem: .wrongType(expected: .integer))) {
            try JSONBodyDecoder(unknownKeys: .refuse).decode(Patch.self, from: Data(#"{"dailyLimit":"5"}"#.utf8))
        }
    }

    @Test func theOTPApplicationSettingsClearWithNull() throws {
        let settings = try JSONBodyDecoder(unknownKeys: .refuse).decode(
            AdminWire.OTPApplicationSettings.self, from: Data(#"{"name":"Shop","callbackUrl":null,"monthlyLimit":100}"#.utf8))
        #expect(settings.name == "Shop")
        #expect(settings.callbackUrl == .null)
        #expect(settings.smsDomain == nil)
        #expect(settings.monthlyLimit == .value(100))
    }
}
