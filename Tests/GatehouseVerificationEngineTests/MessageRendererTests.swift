import Testing
@testable import GatehouseVerificationEngine

@Suite struct MessageRendererTests {
    @Test func rendersPlainSMS() {
        #expect(MessageRenderer.renderSMS(template: "Your code is {{CODE}}", code: "123456") == "Your code is 123456")
        #expect(MessageRenderer.renderSMS(template: "{{CODE}} is your code", code: "0042") == "0042 is your code")
    }

    @Test func rendersAndroidAppHash() {
        let text = MessageRenderer.renderSMS(template: "Your code is {{CODE}}", code: "123456", appHash: "A1b2C3d4E5f")
        #expect(text == "<#> Your code is 123456\nA1b2C3d4E5f")
    }

    @Test func rendersAppleDomainBoundLine() {
        let text = MessageRenderer.renderSMS(template: "Your code is {{CODE}}", code: "123456", autofillDomain: "example.com")
        #expect(text == "Your code is 123456\n\n@example.com #123456")
    }

    @Test func appHashWinsWhenBothMarkersAreGiven() {
        let text = MessageRenderer.renderSMS(
            template: "Code: {{CODE}}", code: "0042", appHash: "abc+/012XYZ", autofillDomain: "example.com"
        )
        #expect(text == "<#> Code: 0042\nabc+/012XYZ")
    }

    @Test func rendersCalloutDigitByDigit() {
        let text = MessageRenderer.renderCallout(template: DefaultTemplates.callout(for: "en-US"), code: "4821")
        #expect(text == "Your verification code is 4 8 2 1. Again, your code is 4 8 2 1.")
        #expect(MessageRenderer.renderCallout(template: "Code {{CODE}}", code: "90817263") == "Code 9 0 8 1 7 2 6 3")
    }

    @Test func smsTemplateNeedsExactlyOnePlaceholder() {
        #expect(MessageRenderer.isValidSMSTemplate("Your code is {{CODE}}"))
        #expect(MessageRenderer.isValidSMSTemplate("{{CODE}}"))
        #expect(!MessageRenderer.isValidSMSTemplate("{{CODE}} again {{CODE}}"))
        #expect(!MessageRenderer.isValidSMSTemplate("Your code is {{code}}"))
        #expect(!MessageRenderer.isValidSMSTemplate("Your code is { {CODE}}"))
        #expect(!MessageRenderer.isValidSMSTemplate(""))
    }

    @Test func calloutTemplateNeedsAPlaceholder() {
        #expect(MessageRenderer.isValidCalloutTemplate("{{CODE}}. Again, {{CODE}}."))
        #expect(MessageRenderer.isValidCalloutTemplate("Code {{CODE}}"))
        #expect(!MessageRenderer.isValidCalloutTemplate("Code {{Code}}"))
    }

    @Test func appHashFormat() {
        for good in ["A1b2C3d4E5f", "abc+/012XYZ", "///////////"] {
            #expect(MessageRenderer.isValidAppHash(good), "\(good)")
        }
        for bad in ["", "A1b2C3d4E5", "A1b2C3d4E5fg", "A1b2C3d4E5-", "A1b2C3d4E5_", "A1b2C3d4E5=", "A1b2C3d4E5 ", "A1b2C3d4E5é"] {
            #expect(!MessageRenderer.isValidAppHash(bad), "\(bad)")
        }
    }

    @Test func smsDomainMustBeABareLowerCaseHostname() {
        for good in ["example.com", "sub.example.co.uk", "my-app.example", "a1.b2", "xn--80ak6aa92e.com"] {
            #expect(MessageRenderer.isValidDomain(good), "\(good)")
        }
        for bad in ["", "example", "https://example.com", "Example.com", "example.com.", ".example.com",
                    "a..com", "-a.com", "a-.com", "example.com:443", "example.com/path", "ex ample.com",
                    "1.2.3.4", "exa_mple.com", "bücher.de", String(repeating: "a", count: 64) + ".com"] {
            #expect(!MessageRenderer.isValidDomain(bad), "\(bad)")
        }
    }
}

@Suite struct DefaultTemplatesTests {
    @Test func everySMSLanguageHasATemplateWithOnePlaceholder() {
        #expect(Set(DefaultTemplates.smsTemplates.keys) == Set(LanguageCatalog.sms))
        for language in LanguageCatalog.sms {
            let template = DefaultTemplates.sms(for: language)
            #expect(MessageRenderer.isValidSMSTemplate(template), "\(language)")
            #expect(MessageRenderer.placeholderCount(in: template) == 1, "\(language)")
        }
    }

    @Test func everyCalloutLanguageHasAnAnnouncement() {
        #expect(Set(DefaultTemplates.calloutTemplates.keys) == Set(LanguageCatalog.callout))
        for language in LanguageCatalog.callout {
            #expect(MessageRenderer.isValidCalloutTemplate(DefaultTemplates.callout(for: language)), "\(language)")
        }
    }

    @Test func lookupsFallBackToEnglish() {
        #expect(DefaultTemplates.sms(for: "en-US") == "Your verification code is {{CODE}}")
        #expect(DefaultTemplates.sms(for: "de-DE") == "Ihr Bestätigungscode lautet {{CODE}}")
        #expect(DefaultTemplates.sms(for: "hi-IN") == DefaultTemplates.sms(for: "en-US"))
        #expect(DefaultTemplates.callout(for: "ka-GE") == DefaultTemplates.callout(for: "en-US"))
        #expect(DefaultTemplates.template(for: "fr-FR", channel: .sms) == "Votre code de vérification est {{CODE}}")
        #expect(DefaultTemplates.template(for: "fr-FR", channel: .callout)
            == "Votre code de vérification est {{CODE}}. Je répète, votre code est {{CODE}}.")
    }
}
