import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import Testing

@testable import GatehouseServer

/// Engines refuse with data; the dialects word it. Each refusal's words are checked literally,
/// as clients and operators read them.
@Suite struct EngineErrorTextTests {
    @Test func fieldRulesReadAsSentences() {
        let cases: [(FieldRule, String)] = [
            (.required, "to is required"),
            (.length(1...200), "to must be 1 to 200 characters"),
            (.length(0...64), "to must be at most 64 characters"),
            (.digits(4...8), "to must be 4 to 8 digits"),
            (.range(0...86_400), "to must be 0 to 86400"),
            (.oneOf(["IOS", "ANDROID", "WEB"]), "to must be IOS, ANDROID or WEB"),
            (.oneOf(["apple"]), "to must be apple"),
            (.decimal(example: "10.00"), "to must be a decimal string such as 10.00"),
            (.noControlCharacters, "to must not contain control characters"),
            (.languageTag, "to must be a BCP 47 tag"),
            (.hostName, "to must be a host name"),
            (.countryCodes, "to must be ISO 3166 alpha-2 codes"),
            (.httpURL, "to must be an http or https URL"),
            (.codePlaceholder, "to must contain {{CODE}}"),
            (.phonePrefix, "to must be + and 1 to 9 digits, a country code first (such as +447400)"),
            (.emailAddress, "to must be an email address"),
            (.numberOrEmail, "to must be an international number (+14165550123) or an email address"),
            (.string, "to must be a string"),
            (.wholeNumber, "to must be a whole number"),
            (.boolean, "to must be true or false"),
            (.list, "to must be a list"),
            (.object(keys: ["platformProductId", "credits"]), "to must be an object with platformProductId and credits"),
            (.pemCertificate, "to must be a PEM certificate"),
        ]
        for (rule, sentence) in cases { #expect(rule.sentence("to") == sentence) }
    }

    @Test func coreRefusalsReadTheSameInEveryDialect() throws {
        let cases: [(CoreError, String)] = [
            (.notFound(.tenant), "no such tenant"),
            (.notFound(.testNumber), "no such test number"),
            (.notFound(.prefixBlock), "no active block of that prefix"),
            (.invalid("maxAttempts", .range(1...10)), "maxAttempts must be 1 to 10"),
            (CoreError(.conflict, .tenantHoldsMost(.testNumber, limit: 50)), "a tenant may hold at most 50 test numbers"),
            (CoreError(.amountOutOfRange, .balanceOutOfRange), "the amount would take the balance out of its range"),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(AdminError.httpError(error).message == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
        #expect(CoreError(.invalidArgument, .testDestinationNotReserved(isEmail: true)).text.hasPrefix("that address is not in a reserved range"))
    }

    @Test func commerceRefusalsReadTheSameInEveryDialect() {
        let cases: [(CommerceError, String)] = [
            (.notFound(.plan), "no such plan"),
            (.notFound(.appStoreConfiguration), "no App Store configuration"),
            (.invalid("credits", .range(1...1_000_000)), "credits must be 1 to 1000000"),
            (CommerceError(.validationFailed, .appStore(.privateKey)), "privateKey must be the contents of the App Store Connect .p8 file"),
            (CommerceError(.validationFailed, .sandboxOnly("xcodeCertificatePEM")), "xcodeCertificatePEM is refused on production tenants"),
            (CommerceError(.conflict, .productTaken), "a plan already uses this App Store product id"),
            (CommerceError(.validationFailed, .unknownField("colour")), "unknown field: colour"),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(AdminError.httpError(error).message == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
    }
}
