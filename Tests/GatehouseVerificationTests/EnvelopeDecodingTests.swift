import Foundation
import Testing
@testable import GatehouseVerification

@Suite struct EnvelopeDecodingTests {
    private func result(_ json: String, status: Int = 200) async throws -> VerificationResult {
        let (client, _) = TestSupport.client(status: status, json: json)
        return try await client.status(TestSupport.handle())
    }

    private func isUnexpectedResponse(_ json: String) async -> Bool {
        do {
            _ = try await result(json)
            return false
        } catch APIError.unexpectedResponse(let message) {
            return message.hasPrefix("could not decode response body")
        } catch {
            return false
        }
    }

    @Test(arguments: [
        "", "not json", "{}", #"{"data":null}"#, #"{"data":[]}"#,
        #"{"data":{"destination":"1","delivery_method":"sms","status":"pending"}}"#,
        #"{"data":{"id":"x","delivery_method":"sms","status":"pending"}}"#,
        #"{"data":{"id":"x","destination":"1","status":"pending"}}"#,
        #"{"data":{"id":"x","destination":"1","delivery_method":"sms"}}"#,
        #"{"data":{"id":5,"destination":"1","delivery_method":"sms","status":"pending"}}"#,
    ])
    func malformedEnvelopeIsUnexpectedResponse(json: String) async {
        #expect(await isUnexpectedResponse(json))
    }

    @Test(arguments: ["\"free\"", "\"\"", "\"0.06abc\"", "true", "{}"])
    func invalidFeeFailsTheResponse(fee: String) async {
        #expect(await isUnexpectedResponse(Fixtures.verification(fee: fee)))
    }

    /// The shared wire type keeps a decimal text `Decimal` cannot hold; the SDK still fails the reply.
    @Test func feeOutOfDecimalRangeFailsTheResponse() async {
        #expect(await isUnexpectedResponse(Fixtures.verification(fee: "\"1e1000\"")))
    }

    @Test func nullOrAbsentFeeIsNil() async throws {
        #expect(try await result(Fixtures.verification(fee: "null")).fee == nil)
        #expect(try await result(Fixtures.verification(fee: nil)).fee == nil)
    }

    @Test(arguments: [("\"0.0345\"", "0.0345"), ("0.0345", "0.0345"), ("\"1e-2\"", "0.01"), ("12", "12"), ("\"-0.5\"", "-0.5")])
    func feeDecodesExactly(fee: String, expected: String) async throws {
        #expect(try await result(Fixtures.verification(fee: fee)).fee == Decimal(string: expected))
    }

    @Test func unknownDeliveryMethodIsOther() async throws {
        let result = try await result(Fixtures.verification(method: "whatsapp", block: #"{"x":1}"#))
        #expect(result.deliveryMethod == .other("whatsapp"))
        #expect(result.details == nil)
    }

    @Test func deliveryMethodWireMapping() {
        #expect(DeliveryMethod(wireValue: "sms") == .sms)
        #expect(DeliveryMethod(wireValue: "callout") == .callout)
        #expect(DeliveryMethod(wireValue: "SMS") == .other("SMS"))
        #expect(DeliveryMethod.sms.wireValue == "sms")
        #expect(DeliveryMethod.callout.wireValue == "callout")
        #expect(DeliveryMethod.other("voice").wireValue == "voice")
        #expect(DeliveryMethod.allCases == [.sms, .callout])
    }

    @Test func supersededReason() async throws {
        #expect(try await result(Fixtures.failedSuperseded).reason == .superseded)
    }

    @Test(arguments: [
        ("stale_dispatch", Verification.Reason.numberUnreachable), ("dispatch_failed", .failedToDeliver),
        ("failed_to_deliver", .failedToDeliver), ("expired", .expired), ("too_many_attempts", .tooManyAttempts),
        ("application_deleted", .applicationDeleted), ("denied_by_callback", .deniedByCallback),
        ("denied_missing_callback_url", .deniedMissingCallbackURL),
        ("denied_invalid_callback_response", .deniedInvalidCallbackResponse), ("superseded", .superseded),
        ("application_paused", .applicationPaused), ("destination_country_disabled", .destinationCountryDisabled),
        ("destination_not_supported_for_channel", .destinationNotSupportedForChannel),
        ("denied", .other("denied")), ("number_unreachable", .other("number_unreachable")),
    ])
    func reasonMappingTable(slug: String, reason: Verification.Reason) async throws {
        #expect(Verification.Reason(wireValue: slug) == reason)
        let result = try await result(Fixtures.verification(status: "failed", errorCode: slug, errorDetail: "d"))
        #expect(result.reason == reason)
        #expect(result.errorCode == slug)
        #expect(result.errorDetail == "d")
    }

    @Test func handleReasonIsComputedFromErrorCode() {
        let handle = Verification(
            id: "x", destination: "1", deliveryMethod: .sms, expiresAt: Date(), status: .denied,
            errorCode: "application_paused", errorDetail: "application is paused")
        #expect(handle.reason == .applicationPaused)
        #expect(TestSupport.handle().reason == nil)
    }

    @Test func statusMappingTable() {
        let table: [(String, Verification.Status, Bool)] = [
            ("pending", .pending, false), ("verified", .verified, true), ("failed", .failed, true),
            ("expired", .expired, true), ("denied", .denied, true), ("queued", .other("queued"), false),
        ]
        for (wire, status, terminal) in table {
            #expect(Verification.Status(wireValue: wire) == status)
            #expect(status.isTerminal == terminal)
        }
    }

    @Test func healthyRowHasNilErrorFields() async throws {
        let result = try await result(Fixtures.startSMS)
        #expect(result.errorCode == nil)
        #expect(result.errorDetail == nil)
        #expect(result.reason == nil)
    }

    @Test func noChannelBlockMeansNilDetails() async throws {
        #expect(try await result(Fixtures.verification(block: nil)).details == nil)
        #expect(try await result(Fixtures.verification(block: "null")).details == nil)
    }

    @Test func smsBlockWinsWithoutCheckingDeliveryMethod() async throws {
        let json = Fixtures.verification(
            method: "callout", block: #"{"language":"pt-BR"}"#, extra: #""sms":{"template":"t","language":"de-DE"}"#)
        #expect(try await result(json).details == .sms(.init(template: "t", language: "de-DE")))
    }

    @Test func blockWithoutKeysDecodesWithNils() async throws {
        #expect(try await result(Fixtures.verification(block: "{}")).details == .sms(.init()))
        #expect(try await result(Fixtures.verification(method: "callout", block: "{}")).details == .callout(.init()))
    }

    @Test func wronglyTypedBlockOrBlockKeysReadAsAbsent() async throws {
        #expect(try await result(Fixtures.verification(block: "\"text\"")).details == nil)
        let json = Fixtures.verification(block: #"{"template":1,"language":"de-DE","code_length":"six","template_group_used":"yes"}"#)
        #expect(try await result(json).details == .sms(.init(language: "de-DE")))
    }
}
