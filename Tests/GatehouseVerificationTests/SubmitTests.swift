import Foundation
import Testing
@testable import GatehouseVerification

@Suite struct SubmitTests {
    @Test func verifyUsesPutOnIdWithMethodAndCode() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.verifiedSMS())
        let handle = TestSupport.handle(id: Fixtures.id)
        let result = try await client.verify(handle, code: "123456")
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "PUT")
        #expect(request.url?.absoluteString == "https://verify.example.com/api/v1/verifications/\(Fixtures.id)")
        let data = try TestSupport.data(request)
        #expect(data["delivery_method"] as? String == "sms")
        #expect(data["code"] as? String == "123456")
        #expect(data.count == 2)
        #expect(result.status == .verified)
        #expect(result.status.isTerminal)
        #expect(result.reason == nil)
    }

    @Test func calloutMethodIsEchoed() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.verifiedCallout)
        _ = try await client.verify(TestSupport.handle(method: .callout), code: "1234")
        #expect(try TestSupport.firstData(transport)["delivery_method"] as? String == "callout")
    }

    @Test func otherMethodHandleIsEchoedRaw() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.verification(method: "whatsapp", block: nil))
        let result = try await client.verify(TestSupport.handle(method: .other("whatsapp")), code: "1234")
        #expect(try TestSupport.firstData(transport)["delivery_method"] as? String == "whatsapp")
        #expect(result.deliveryMethod == .other("whatsapp"))
        #expect(result.details == nil)
    }

    @Test func verifyByNumberUsesDigitsOnlyPathAndPut() async throws {
        let (client, transport) = TestSupport.client(status: 200, json: Fixtures.verifiedSMS())
        _ = try await client.verify(number: "+1 (555) 123-4567", code: "123456", method: .sms)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "PUT")
        #expect(request.url?.absoluteString == "https://verify.example.com/api/v1/verifications/by_number/15551234567")
        let data = try TestSupport.data(request)
        #expect(data["delivery_method"] as? String == "sms")
        #expect(data["code"] as? String == "123456")
    }

    @Test func verifyByNumberWithoutDigitsThrowsBeforeRequest() async {
        let transport = MockTransport(status: 200, json: Fixtures.verifiedSMS())
        let client = TestSupport.client(transport)
        await #expect(throws: VerificationError.invalidNumber) {
            try await client.verify(number: "++--", code: "123456", method: .sms)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [("code_invalid", "code is invalid"), ("delivery_method_invalid", "delivery method is invalid")])
    func wrongCodeOrMethodIsValidationFailed(code: String, detail: String) async throws {
        let (client, _) = TestSupport.client(status: 422, json: Fixtures.errorBody([(code, detail)]))
        do {
            _ = try await client.verify(number: "+15551234567", code: "000000", method: .callout)
            Issue.record("expected validationFailed")
        } catch APIError.validationFailed(let items) {
            #expect(items == [APIErrorItem(code: code, detail: detail)])
            #expect(items.first?.known == APIErrorCode(rawValue: code))
        }
    }

    @Test func unknownVerificationIsNotFound() async {
        let (client, _) = TestSupport.client(status: 404, json: Fixtures.errorBody([("not_found", "not found")]))
        await #expect(throws: APIError.notFound) {
            try await client.verify(TestSupport.handle(), code: "123456")
        }
    }

    @Test func tooManyAttemptsIsAResultNotAnError() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.failedTooManyAttempts)
        let result = try await client.verify(TestSupport.handle(), code: "000000")
        #expect(result.status == .failed)
        #expect(result.reason == .tooManyAttempts)
        #expect(result.errorDetail == "too many attempts")
    }
}
