import Foundation
import Testing
@testable import GatehouseVerification

/// The 1.2 fields of the `sms` and `callout` blocks: template group, fallback reason, autofill.
@Suite struct DetailsTests {
    private func details(_ method: String, _ block: String) async throws -> Verification.Details? {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.verification(method: method, block: block))
        return try await client.status(TestSupport.handle()).details
    }

    @Test func smsTemplateGroupUsed() async throws {
        let block = #"{"template":"Checkout code {{CODE}}","language":"de-DE","code_length":6,"template_group":"checkout","template_group_used":true,"template_fallback_reason":null}"#
        #expect(try await details("sms", block) == .sms(.init(
            template: "Checkout code {{CODE}}", language: "de-DE", codeLength: 6, templateGroup: "checkout",
            templateGroupUsed: true)))
    }

    @Test(arguments: [
        ("language_missing", Verification.Details.TemplateFallbackReason.languageMissing),
        ("version_pending", .versionPending), ("version_rejected", .versionRejected),
        ("audio_not_ready", .audioNotReady), ("group_missing", .groupMissing), ("something_new", .other("something_new")),
    ])
    func fallbackReasonOnBothBlocks(wire: String, reason: Verification.Details.TemplateFallbackReason) async throws {
        let smsBlock = #"{"template":"Your code is {{CODE}}","language":"en-US","code_length":6,"template_group":"checkout","template_group_used":false,"template_fallback_reason":"\#(wire)"}"#
        #expect(try await details("sms", smsBlock) == .sms(.init(
            template: "Your code is {{CODE}}", language: "en-US", codeLength: 6, templateGroup: "checkout",
            templateFallbackReason: reason)))
        let calloutBlock = #"{"language":"en-US","code_length":4,"template_group":"checkout","template_group_used":false,"template_fallback_reason":"\#(wire)"}"#
        #expect(try await details("callout", calloutBlock) == .callout(.init(
            language: "en-US", codeLength: 4, templateGroup: "checkout", templateFallbackReason: reason)))
    }

    @Test func templateGroupUsedIsFalseWhenAbsent() async throws {
        guard case .callout(let callout)? = try await details("callout", #"{"language":"en-US","code_length":6}"#) else {
            Issue.record("expected callout details")
            return
        }
        #expect(callout.templateGroupUsed == false)
        #expect(callout.templateGroup == nil)
        #expect(callout.templateFallbackReason == nil)
    }

    @Test func calloutTemplateGroupUsed() async throws {
        let block = #"{"language":"pt-BR","code_length":6,"template_group":"checkout","template_group_used":true}"#
        #expect(try await details("callout", block) == .callout(.init(
            language: "pt-BR", codeLength: 6, templateGroup: "checkout", templateGroupUsed: true)))
    }

    @Test func autofillDomain() async throws {
        let block = #"{"template":"Your code is {{CODE}}","language":"en-US","code_length":6,"autofill":{"type":"domain","value":"example.com"}}"#
        guard case .sms(let sms)? = try await details("sms", block) else {
            Issue.record("expected sms details")
            return
        }
        #expect(sms.autofill == .init(type: .domain, value: "example.com"))
        #expect(sms.autofill?.type == .domain)
        #expect(sms.autofill?.value == "example.com")
    }

    @Test func autofillAppHash() async throws {
        let block = #"{"template":"t","autofill":{"type":"app_hash","value":"A1b2C3d4E5f"}}"#
        #expect(try await details("sms", block) == .sms(.init(template: "t", autofill: .init(type: .appHash, value: "A1b2C3d4E5f"))))
    }

    @Test func autofillObjectWinsOverLegacyAppHash() async throws {
        let block = #"{"app_hash":"A1b2C3d4E5f","autofill":{"type":"domain","value":"example.com"}}"#
        #expect(try await details("sms", block) == .sms(.init(autofill: .init(type: .domain, value: "example.com"))))
    }

    @Test(arguments: [#"null"#, #"{}"#, #"{"type":"domain"}"#, #"{"value":"x"}"#, #""domain""#])
    func incompleteAutofillIsNil(autofill: String) async throws {
        #expect(try await details("sms", #"{"template":"t","autofill":\#(autofill)}"#) == .sms(.init(template: "t")))
    }

    @Test func publicInitsDefaultToAbsentGroupAndAutofill() {
        let sms = Verification.Details.SMS()
        #expect(sms.templateGroupUsed == false)
        #expect(sms.autofill == nil)
        #expect(Verification.Details.Callout().templateGroupUsed == false)
    }
}
