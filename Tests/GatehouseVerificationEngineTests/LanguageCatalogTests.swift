import Testing
@testable import GatehouseVerificationEngine

@Suite struct LanguageCatalogTests {
    @Test func catalogueSizesMatchTheSpec() {
        #expect(LanguageCatalog.sms.count == 41)
        #expect(Set(LanguageCatalog.sms).count == 41)
        #expect(LanguageCatalog.callout.count == 49)
        #expect(Set(LanguageCatalog.callout).count == 49)
        #expect(LanguageCatalog.catalogue(for: .sms) == LanguageCatalog.sms)
        #expect(LanguageCatalog.catalogue(for: .callout) == LanguageCatalog.callout)
    }

    @Test func smsOnlyLanguagesHaveNoRecording() {
        let smsOnly = Set(LanguageCatalog.sms).subtracting(LanguageCatalog.callout)
        #expect(smsOnly == ["ka-GE", "mt-MT", "ru-RU", "sq-AL"])
    }

    @Test func everyCatalogueTagIsWellFormedAndCanonical() {
        for tag in LanguageCatalog.sms + LanguageCatalog.callout {
            #expect(LanguageCatalog.isWellFormed(tag), "\(tag)")
            #expect(LanguageCatalog.canonical(tag) == tag, "\(tag)")
        }
    }

    @Test(arguments: ["en", "eng", "EN", "en-US", "es-419", "zh-Hant", "pl", "en-12345678", "xx-XX"])
    func acceptsWellFormedTags(_ tag: String) {
        #expect(LanguageCatalog.isWellFormed(tag))
    }

    @Test(arguments: [
        "", "e", "engl", "en-", "-US", "en-U", "en-123456789", "en_US", "en US", "zh-Hans-CN",
        "en-US-", "é-US", "en-ÜS", "12-US", "en--US",
    ])
    func rejectsIllFormedTags(_ tag: String) {
        #expect(!LanguageCatalog.isWellFormed(tag))
        #expect(LanguageCatalog.canonical(tag) == tag)
    }

    @Test func canonicalisesCase() {
        #expect(LanguageCatalog.canonical("EN-us") == "en-US")
        #expect(LanguageCatalog.canonical("Es-419") == "es-419")
        #expect(LanguageCatalog.canonical("PL") == "pl")
        #expect(LanguageCatalog.canonical("zh-hant") == "zh-HANT")
    }

    @Test func resolvesFirstExactMatchElseEnglish() {
        #expect(LanguageCatalog.resolve(["pl"], channel: .sms) == "en-US")
        #expect(LanguageCatalog.resolve(["pl", "pl-PL"], channel: .sms) == "pl-PL")
        #expect(LanguageCatalog.resolve(["EN-gb", "de-DE"], channel: .sms) == "en-GB")
        #expect(LanguageCatalog.resolve(["de-AT", "de-de"], channel: .sms) == "de-DE")
        #expect(LanguageCatalog.resolve(["zh-Hans-CN", "zh-cn"], channel: .sms) == "zh-CN")
        #expect(LanguageCatalog.resolve(["es-419"], channel: .callout) == "es-419")
        #expect(LanguageCatalog.resolve(["xx-XX"], channel: .sms) == "en-US")
        #expect(LanguageCatalog.resolve([], channel: .callout) == "en-US")
    }

    @Test func eachChannelUsesItsOwnCatalogue() {
        #expect(LanguageCatalog.resolve(["ka-GE"], channel: .sms) == "ka-GE")
        #expect(LanguageCatalog.resolve(["ka-GE"], channel: .callout) == "en-US")
        #expect(LanguageCatalog.resolve(["ka-GE", "ru-RU", "tr-TR"], channel: .callout) == "tr-TR")
        #expect(LanguageCatalog.resolve(["tr-TR"], channel: .sms) == "en-US")
        #expect(LanguageCatalog.contains("hi-IN", channel: .callout))
        #expect(!LanguageCatalog.contains("hi-IN", channel: .sms))
    }
}
