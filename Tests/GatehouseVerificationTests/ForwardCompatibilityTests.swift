import Foundation
import Testing
@testable import GatehouseVerification

/// Does a value the server adds later break the SDK? It must not; only typed conveniences degrade.
@Suite struct ForwardCompatibilityTests {
    private func error(status: Int, json: String) async -> APIError? {
        let (client, _) = TestSupport.client(status: status, json: json)
        do {
            _ = try await client.status(TestSupport.handle())
            return nil
        } catch {
            return error as? APIError
        }
    }

    private func result(_ json: String) async throws -> VerificationResult {
        let (client, _) = TestSupport.client(status: 200, json: json)
        return try await client.status(TestSupport.handle())
    }

    @Test func newErrorSlug() async {
        let error = await error(status: 422, json: Fixtures.errorBody([("quantum_flux", "new")]))
        #expect(error == .validationFailed([.init(code: "quantum_flux", detail: "new")]))
    }

    @Test func newSlugBesideAKnownOne() async {
        let error = await error(status: 422, json: Fixtures.errorBody([("quantum_flux", "new"), ("code_blank", "b")]))
        guard case .validationFailed(let items) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(items.map(\.known) == [nil, .codeBlank])
    }

    @Test func extraKeysInAnErrorElementAndBesideErrors() async {
        let json = #"{"meta":{"request_id":"r"},"errors":[{"code":"code_invalid","detail":"code is invalid","source":{"pointer":"/data/code"},"status":"422"}]}"#
        #expect(await error(status: 422, json: json) == .validationFailed([.init(code: "code_invalid", detail: "code is invalid")]))
    }

    @Test func legacyStringArrayEnvelope() async {
        #expect(await error(status: 422, json: #"{"errors":["code is invalid"]}"#) == .validationFailed([]))
    }

    @Test func tooManyRequestsKeepsItsItems() async {
        let json = Fixtures.errorBody([("destination_in_cooldown", "verification for this destination was requested too recently")])
        let error = await error(status: 429, json: json)
        #expect(error == .unexpectedStatus(code: 429, items: [
            .init(code: "destination_in_cooldown", detail: "verification for this destination was requested too recently"),
        ]))
    }

    @Test func newOutcomeSlugOnStatusAndStart() async throws {
        let json = Fixtures.verification(status: "failed", errorCode: "carrier_rejected", errorDetail: "carrier rejected")
        #expect(try await result(json).reason == .other("carrier_rejected"))
        let (client, _) = TestSupport.client(status: 201, json: json)
        #expect(try await client.start(destination: "+15551234567", method: .sms).reason == .other("carrier_rejected"))
    }

    @Test func errorCodeWithoutErrorDetail() async throws {
        let json = Fixtures.verification(status: "failed", errorCode: "expired", extra: "").replacingOccurrences(of: #","error_detail":null"#, with: "")
        let result = try await result(json)
        #expect(result.reason == .expired)
        #expect(result.errorDetail == nil)
    }

    @Test func extraVerificationFields() async throws {
        let block = #"{"template":"t","language":"en-US","sender":"ACME","interception_timeout":300,"code_length":6}"#
        let json = Fixtures.verification(block: block, extra: #""attempts_remaining":2,"created_at":"2026-01-01T00:00:00Z""#)
        #expect(try await result(json).details == .sms(.init(template: "t", language: "en-US", codeLength: 6)))
    }

    @Test func extraCalloutKeys() async throws {
        let json = Fixtures.verification(method: "callout", block: #"{"language":"de-DE","voice":"f","code_length":8}"#)
        #expect(try await result(json).details == .callout(.init(language: "de-DE", codeLength: 8)))
    }

    @Test func fullServerSMSBlockWithAppHash() async throws {
        let block = #"{"template":"Your code is {{CODE}}","language":"de-DE","interception_timeout":300,"code_length":6,"app_hash":"A1b2C3d4E5f"}"#
        let details = try await result(Fixtures.verification(block: block)).details
        #expect(details == .sms(.init(
            template: "Your code is {{CODE}}", language: "de-DE", codeLength: 6,
            autofill: .init(type: .appHash, value: "A1b2C3d4E5f"))))
    }

    @Test func emptyCalloutBlock() async throws {
        #expect(try await result(Fixtures.verification(method: "callout", block: "{}")).details == .callout(.init()))
    }

    @Test func newStatusIsNonTerminal() async throws {
        let status = try await result(Fixtures.withStatus("queued")).status
        #expect(status == .other("queued"))
        #expect(!status.isTerminal)
    }

    @Test func newChannelOnStatusAndStart() async throws {
        let json = Fixtures.verification(method: "whatsapp", block: #"{"template":"x"}"#)
        let result = try await result(json)
        #expect(result.deliveryMethod == .other("whatsapp"))
        #expect(result.details == nil)
        let (client, _) = TestSupport.client(status: 201, json: json)
        let verification = try await client.start(destination: "+15551234567", method: .other("whatsapp"))
        #expect(verification.deliveryMethod == .other("whatsapp"))
        #expect(verification.details == nil)
    }

    @Test func unmodelledChannelCanStillBeSubmitted() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.verification(method: "whatsapp", status: "verified", block: nil))
        let result = try await client.verify(TestSupport.handle(method: .other("whatsapp")), code: "1234")
        #expect(result.status == .verified)
        #expect(try TestSupport.firstData(transport)["delivery_method"] as? String == "whatsapp")
    }

    @Test func newFallbackReasonAndAutofillKind() async throws {
        let block = #"{"template_group":"checkout","template_group_used":false,"template_fallback_reason":"quota_exceeded","autofill":{"type":"web_otp","value":"example.com"}}"#
        let details = try await result(Fixtures.verification(block: block)).details
        #expect(details == .sms(.init(
            templateGroup: "checkout", templateFallbackReason: .other("quota_exceeded"),
            autofill: .init(type: .other("web_otp"), value: "example.com"))))
    }

    @Test func newHTTPStatusKeepsItsItems() async {
        let error = await error(status: 451, json: Fixtures.errorBody([("legal_hold", "unavailable")]))
        #expect(error == .unexpectedStatus(code: 451, items: [.init(code: "legal_hold", detail: "unavailable")]))
    }
}
