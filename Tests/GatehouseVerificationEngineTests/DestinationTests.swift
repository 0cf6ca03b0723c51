import Testing
@testable import GatehouseVerificationEngine

@Suite struct DestinationTests {
    @Test(arguments: [
        ("+4915112345678", "4915112345678"),
        ("4915112345678", "4915112345678"),
        ("+1 (555) 555-0100", "15555550100"),
        ("+49 151-1234 5678", "4915112345678"),
        ("(+49) 151 12345678", "4915112345678"),    // separators go first, then `+` leads
        ("12345678", "12345678"),                   // 8 digits: shortest accepted
        ("+12345678", "12345678"),
        ("1234567", nil),                           // 7 digits
        ("123456789012345", "123456789012345"),     // 15 digits: longest accepted
        ("+123456789012345", "123456789012345"),
        ("1234567890123456", nil),                  // 16 digits
        ("+371.12345678", nil),                     // `.` is not a separator
        ("++4915112345678", nil),
        ("4915+112345678", nil),
        ("", nil),
        ("+", nil),
        ("   ", nil),
        ("abc12345678", nil),
        ("\t4915112345678", nil),                   // only the space is a separator
        ("４９１５１１２３４５６７８", nil),           // full-width digits are not ASCII
        ("0049/15112345678", nil),
    ] as [(String, String?)])
    func normalizes(_ raw: String, _ expected: String?) {
        #expect(Destination.normalize(raw) == expected)
    }

    @Test func digitsStripsEverythingElse() {
        #expect(Destination.digits("+371.12345678") == "37112345678")
        #expect(Destination.digits("+49 151 1234 5678") == "4915112345678")
        #expect(Destination.digits("15555550100") == "15555550100")
        #expect(Destination.digits("٤٩١٥abc") == "")
        #expect(Destination.digits("") == "")
    }
}
