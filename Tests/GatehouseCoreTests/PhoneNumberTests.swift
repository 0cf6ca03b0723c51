import GatehouseCore
import Testing

// Expectations are what libphonenumber 8.12 (Debian libphonenumber8) actually
// answers, checked against the installed library rather than assumed.
@Suite("PhoneNumber")
struct PhoneNumberTests {
    @Test("UK mobile in the allocated 07400 range is a valid GB mobile")
    func ukMobile() throws {
        let number = try PhoneNumber.parse("+44 7400 123456")
        #expect(number.e164 == "+447400123456")
        #expect(number.countryCode == 44)
        #expect(number.nationalNumber == "7400123456")
        #expect(number.region == "GB")
        #expect(number.lineType == .mobile)
        #expect(number.isValid)
        #expect(number.isPossible)
    }

    // Ofcom reserves 07700 900000–900999 for drama; libphonenumber's GB
    // metadata leaves it out of the mobile pattern, so it parses, has a
    // possible length, but is neither valid nor attributable to GB.
    @Test("Ofcom drama range 07700 900xxx parses but is not valid")
    func ukDramaRange() throws {
        let number = try PhoneNumber.parse("+44 7700 900123")
        #expect(number.e164 == "+447700900123")
        #expect(number.countryCode == 44)
        #expect(number.nationalNumber == "7700900123")
        #expect(number.region == nil)
        #expect(number.lineType == .unknown)
        #expect(!number.isValid)
        #expect(number.isPossible)
        #expect(throws: PhoneNumberError.invalid) { try number.validated() }
    }

    @Test("US numbers cannot be told apart as mobile or landline")
    func usNumber() throws {
        let number = try PhoneNumber.parse("+1 650 253 0000")
        #expect(number.e164 == "+16502530000")
        #expect(number.countryCode == 1)
        #expect(number.nationalNumber == "6502530000")
        #expect(number.region == "US")
        #expect(number.lineType == .fixedLineOrMobile)
        #expect(number.isValid)
        #expect(try number.validated() == number)
    }

    @Test("German mobile, grouped two different ways, is the same number")
    func germanMobile() throws {
        let number = try PhoneNumber.parse("+49 151 23456789")
        #expect(number.e164 == "+4915123456789")
        #expect(number.countryCode == 49)
        #expect(number.nationalNumber == "15123456789")
        #expect(number.region == "DE")
        #expect(number.lineType == .mobile)
        #expect(number.isValid)
        #expect(try PhoneNumber.parse("+49 1512 3456789") == number)
    }

    @Test("National London number with GB default region")
    func nationalWithDefaultRegion() throws {
        let number = try PhoneNumber.parse("020 7946 0018", defaultRegion: "GB")
        #expect(number.e164 == "+442079460018")
        #expect(number.nationalNumber == "2079460018")
        #expect(number.region == "GB")
        #expect(number.lineType == .fixedLine)
        #expect(number.isValid)
        // The default region is case-insensitive and ignored once a "+" is present.
        #expect(try PhoneNumber.parse("020 7946 0018", defaultRegion: "gb") == number)
        #expect(try PhoneNumber.parse("+44 20 7946 0018", defaultRegion: "US") == number)
    }

    @Test("National input without a usable default region is rejected")
    func nationalWithoutRegion() {
        #expect(throws: PhoneNumberError.invalidCountryCode) { try PhoneNumber.parse("020 7946 0018") }
        #expect(throws: PhoneNumberError.invalidCountryCode) { try PhoneNumber.parse("020 7946 0018", defaultRegion: "") }
        #expect(throws: PhoneNumberError.invalidCountryCode) { try PhoneNumber.parse("020 7946 0018", defaultRegion: "XX") }
    }

    @Test("Surrounding spaces and punctuation are ignored", arguments: [
        ("  +1 (650) 253-0000  ", nil),
        ("tel:+1-650-253-0000", nil),
        ("+1.650.253.0000.", nil),
        ("\t(650) 253-0000\n", "US"),
    ] as [(String, String?)])
    func punctuation(input: String, region: String?) throws {
        let number = try PhoneNumber.parse(input, defaultRegion: region)
        #expect(number.e164 == "+16502530000")
        #expect(number.region == "US")
    }

    @Test("Full-width digits and plus sign normalise to ASCII")
    func fullWidth() throws {
        #expect(try PhoneNumber.parse("＋４４ ７４００ １２３４５６").e164 == "+447400123456")
    }

    @Test("Non-geographic and special-rate numbers")
    func specialNumbers() throws {
        let freephone = try PhoneNumber.parse("+800 1234 5678")
        #expect(freephone.e164 == "+80012345678")
        #expect(freephone.countryCode == 800)
        #expect(freephone.region == nil)
        #expect(freephone.lineType == .tollFree)
        #expect(freephone.isValid)

        #expect(try PhoneNumber.parse("+44 800 123 4567").lineType == .tollFree)
        #expect(try PhoneNumber.parse("+1 900 253 0000").lineType == .premiumRate)

        // Italian fixed lines keep their leading zero in the national number.
        let rome = try PhoneNumber.parse("+39 06 1234 5678")
        #expect(rome.e164 == "+390612345678")
        #expect(rome.nationalNumber == "0612345678")
        #expect(rome.region == "IT")
    }

    @Test("Garbage is not a number", arguments: ["abc", "", "+", "   ", "hello world"])
    func garbage(input: String) {
        #expect(throws: PhoneNumberError.notANumber) { try PhoneNumber.parse(input) }
    }

    @Test("Unknown country calling codes are rejected", arguments: ["+999 123", "+999 1234567", "+012345"])
    func invalidCountryCode(input: String) {
        #expect(throws: PhoneNumberError.invalidCountryCode) { try PhoneNumber.parse(input) }
    }

    @Test("Too short")
    func tooShort() {
        #expect(throws: PhoneNumberError.tooShort) { try PhoneNumber.parse("+44 1") }
        #expect(throws: PhoneNumberError.tooShort) { try PhoneNumber.parse("011 44", defaultRegion: "US") }
    }

    @Test("Too long for the library's national-number limit")
    func tooLong() {
        #expect(throws: PhoneNumberError.tooLong) { try PhoneNumber.parse("+44 1234567890123456789") }
        #expect(throws: PhoneNumberError.tooLong) { try PhoneNumber.parse("+49 123456789012345678") }
    }

    // libphonenumber accepts up to 17 national digits, which with a calling
    // code exceeds E.164's 15; the boundary must hold for parse() too.
    @Test("E.164 15-digit limit applies to free-form input")
    func e164LimitOnParse() throws {
        let fifteen = try PhoneNumber.parse("+49 1234567890123")
        #expect(fifteen.e164 == "+491234567890123")
        #expect(throws: PhoneNumberError.tooLong) { try PhoneNumber.parse("+49 12345678901234") }
        #expect(throws: PhoneNumberError.tooLong) { try PhoneNumber.parse("+49 12345678901234567") }
    }

    @Test("Digits-only dialect")
    func digitsOnly() throws {
        let uk = try PhoneNumber.parseDigits("447400123456")
        #expect(uk.e164 == "+447400123456")
        #expect(uk.region == "GB")
        #expect(uk.lineType == .mobile)

        let drama = try PhoneNumber.parseDigits("447700900123")
        #expect(drama.e164 == "+447700900123")
        #expect(!drama.isValid)

        let us = try PhoneNumber.parseDigits("16502530000")
        #expect(us.e164 == "+16502530000")
        #expect(us.region == "US")
    }

    @Test("Digits-only dialect enforces exactly 1–15 digits")
    func digitsOnlyLength() throws {
        #expect(try PhoneNumber.parseDigits("491234567890123").e164 == "+491234567890123")
        #expect(throws: PhoneNumberError.tooLong) { try PhoneNumber.parseDigits("4912345678901234") }
        #expect(throws: PhoneNumberError.notANumber) { try PhoneNumber.parseDigits("") }
        // One digit passes the dialect check and is then judged by the library.
        #expect(throws: PhoneNumberError.notANumber) { try PhoneNumber.parseDigits("4") }
    }

    @Test("Digits-only dialect rejects anything but ASCII digits", arguments: [
        "+447400123456", "44 7400 123456", "44-7400-123456", "４４７４００１２３４５６", "44740012345a", " 447400123456",
    ])
    func digitsOnlyRejects(input: String) {
        #expect(throws: PhoneNumberError.notANumber) { try PhoneNumber.parseDigits(input) }
    }

    @Test("Region lookups")
    func regions() {
        #expect(PhoneNumber.region(forCountryCode: 1) == "US")
        #expect(PhoneNumber.region(forCountryCode: 44) == "GB")
        #expect(PhoneNumber.region(forCountryCode: 49) == "DE")
        #expect(PhoneNumber.region(forCountryCode: 800) == nil)
        #expect(PhoneNumber.region(forCountryCode: 999) == nil)
        #expect(PhoneNumber.region(forCountryCode: 0) == nil)
        #expect(PhoneNumber.region(forCountryCode: Int.max) == nil)

        #expect(PhoneNumber.isValidRegion("GB"))
        #expect(PhoneNumber.isValidRegion("us"))
        #expect(!PhoneNumber.isValidRegion("ZZ"))
        #expect(!PhoneNumber.isValidRegion("001"))
        #expect(!PhoneNumber.isValidRegion("XX"))
        #expect(!PhoneNumber.isValidRegion(""))
    }

    // The bridge shares one library instance process-wide; parallel parses
    // must neither crash nor cross-contaminate results.
    @Test("Concurrent parsing through the shared library instance")
    func concurrentParsing() async throws {
        let inputs = ["+44 7400 123456", "+1 650 253 0000", "+49 151 23456789", "+39 06 1234 5678"]
        let expected = ["+447400123456", "+16502530000", "+4915123456789", "+390612345678"]
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for round in 0..<200 {
                let index = round % inputs.count
                group.addTask { (index, try PhoneNumber.parse(inputs[index]).e164) }
            }
            return try await group.reduce(into: [(Int, String)]()) { $0.append($1) }
        }
        #expect(results.count == 200)
        for (index, e164) in results {
            #expect(e164 == expected[index])
        }
    }

    @Test("Line types keep their snake_case wire names")
    func lineTypeRawValues() {
        #expect(PhoneLineType.fixedLineOrMobile.rawValue == "fixed_line_or_mobile")
        #expect(PhoneLineType(rawValue: "toll_free") == .tollFree)
        #expect(PhoneLineType.allCases.count == 12)
        #expect(PhoneNumberError.invalidCountryCode.rawValue == "invalid_country_code")
    }
}
