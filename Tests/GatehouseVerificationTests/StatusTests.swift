import Foundation
import Testing
@testable import GatehouseVerification

@Suite struct StatusTests {
    @Test func statusIsGetByIdWithoutBody() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.verifiedSMS(fee: "\"0.05\""))
        let result = try await client.status(TestSupport.handle(id: Fixtures.id))
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(request.url?.absoluteString == "https://verify.example.com/api/v1/verifications/\(Fixtures.id)")
        #expect(result.status == .verified)
        #expect(result.fee == Decimal(string: "0.05"))
        #expect(result.expiresAt == TestSupport.date(Fixtures.farFuture))
        #expect(result.details == .sms(.init(template: "default_otp", language: "en-US", codeLength: 6)))
    }

    @Test func feeFromJSONNumberHasNoDrift() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.verifiedSMSNumberFee)
        let result = try await client.status(TestSupport.handle())
        #expect(result.fee == Decimal(string: "0.06"))
        #expect(result.fee?.description == "0.06")
    }

    @Test func unknownStatusIsOtherAndNonTerminal() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.withStatus("queued"))
        let result = try await client.status(TestSupport.handle())
        #expect(result.status == .other("queued"))
        #expect(!result.status.isTerminal)
    }

    @Test func tooManyAttemptsReason() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.failedTooManyAttempts)
        let result = try await client.status(TestSupport.handle())
        #expect(result.reason == .tooManyAttempts)
        #expect(result.errorCode == "too_many_attempts")
    }

    @Test func statusByNumberUsesDigitsOnlyPath() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.startSMS)
        _ = try await client.status(number: "+1.555.1234567")
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
        #expect(request.url?.absoluteString == "https://verify.example.com/api/v1/verifications/by_number/15551234567")
    }

    @Test func statusByNumberNotFound() async {
        let (client, _) = TestSupport.client(status: 404, json: Fixtures.errorBody([("not_found", "not found")]))
        await #expect(throws: APIError.notFound) { try await client.status(number: "+15551234567") }
    }

    @Test func finishedVerificationReadByNumber() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.failedSuperseded)
        let result = try await client.status(number: "15551234567")
        #expect(result.status == .failed)
        #expect(result.reason == .superseded)
    }

    @Test func statusByNumberWithoutDigitsThrowsBeforeRequest() async {
        let transport = MockTransport()
        let client = TestSupport.client(transport)
        await #expect(throws: VerificationError.invalidNumber) { try await client.status(number: "٣٣٣ () -") }
        #expect(transport.requests.isEmpty)
    }

    @Test func calloutLanguageIsRead() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.startCallout(language: "pt-BR"))
        let result = try await client.status(TestSupport.handle(method: .callout))
        #expect(result.details == .callout(.init(language: "pt-BR", codeLength: 6)))
    }

    @Test func startHandleShowsServerLanguageFallback() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.startCallout(language: "en-US"))
        let verification = try await client.start(
            destination: "+995555123456", method: .callout, callout: .init(languages: ["ka-GE"]))
        guard case .callout(let callout) = verification.details else {
            Issue.record("expected callout details")
            return
        }
        #expect(callout.language == "en-US")
    }

    @Test func startHandleCarriesSMSBlock() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.startSMS)
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        guard case .sms(let sms) = verification.details else {
            Issue.record("expected sms details")
            return
        }
        #expect(sms.template == "default_otp")
        #expect(sms.language == "en-US")
        #expect(sms.codeLength == 6)
        #expect(sms.templateGroupUsed == false)
        #expect(sms.templateGroup == nil)
        #expect(sms.templateFallbackReason == nil)
        #expect(sms.autofill == nil)
    }
}
