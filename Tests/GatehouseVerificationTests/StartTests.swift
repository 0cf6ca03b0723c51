import Foundation
import Testing
@testable import GatehouseVerification

@Suite struct StartTests {
    @Test func postsToVerificationsWithBasicAuth() async throws {
        let (client, transport) = TestSupport.client(status: 201, json: Fixtures.startSMS)
        try await client.start(destination: "+15551234567", method: .sms)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://verify.example.com/api/v1/verifications")
        #expect(request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Basic ") == true)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func bodyCarriesDestinationAsPassedAndMethod() async throws {
        let (client, transport) = TestSupport.client(status: 201, json: Fixtures.startSMS)
        try await client.start(destination: "+1 (555) 123-4567", method: .sms)
        let data = try TestSupport.firstData(transport)
        #expect(data["destination"] as? String == "+1 (555) 123-4567")
        #expect(data["delivery_method"] as? String == "sms")
        #expect(Set(data.keys) == ["destination", "delivery_method"])
    }

    @Test func smsBlockCarriesLanguagesAndNoTopLevelLanguages() async throws {
        let (client, transport) = TestSupport.client(status: 201, json: Fixtures.startSMS)
        try await client.start(destination: "+15551234567", method: .sms, sms: .init(languages: ["de-DE", "en-US"]))
        let data = try TestSupport.firstData(transport)
        #expect((data["sms"] as? [String: Any])?["languages"] as? [String] == ["de-DE", "en-US"])
        #expect(data["languages"] == nil)
        #expect(data["callout"] == nil)
    }

    @Test func calloutBlockCarriesLanguages() async throws {
        let (client, transport) = TestSupport.client(status: 201, json: Fixtures.startCallout())
        try await client.start(destination: "+15551234567", method: .callout, callout: .init(languages: ["pt-BR"]))
        let data = try TestSupport.firstData(transport)
        #expect((data["callout"] as? [String: Any])?["languages"] as? [String] == ["pt-BR"])
        #expect(data["sms"] == nil)
        #expect(data["languages"] == nil)
    }

    @Test func emptyLanguagesArrayIsNotEmptyBlock() async throws {
        let (client, transport) = TestSupport.client(status: 201, json: Fixtures.startSMS)
        try await client.start(destination: "+15551234567", method: .sms, sms: .init(languages: []))
        let data = try TestSupport.firstData(transport)
        #expect((data["sms"] as? [String: Any])?["languages"] as? [String] == [])
    }

    @Test func nilOrEmptyBlocksAreOmitted() async throws {
        let transport = MockTransport()
        for _ in 0..<4 { transport.enqueue(status: 201, json: Fixtures.startSMS) }
        let client = TestSupport.client(transport)
        try await client.start(destination: "+15551234567", method: .sms, sms: nil)
        try await client.start(destination: "+15551234567", method: .sms, sms: .init())
        try await client.start(destination: "+15551234567", method: .callout, callout: nil)
        try await client.start(destination: "+15551234567", method: .callout, callout: .init())
        for request in transport.requests {
            let data = try TestSupport.data(request)
            #expect(data["sms"] == nil)
            #expect(data["callout"] == nil)
        }
    }

    static let mismatches: [(DeliveryMethod, SMSOptions?, CalloutOptions?)] = [
        (DeliveryMethod.callout, SMSOptions(languages: ["en-US"]), CalloutOptions?.none),
        (DeliveryMethod.sms, SMSOptions?.none, CalloutOptions(languages: ["en-US"])),
        (DeliveryMethod.other("whatsapp"), SMSOptions(languages: ["en-US"]), CalloutOptions?.none),
        (DeliveryMethod.other("whatsapp"), SMSOptions?.none, CalloutOptions(languages: ["en-US"])),
        (DeliveryMethod.sms, SMSOptions(languages: ["en-US"]), CalloutOptions(languages: ["en-US"])),
        (DeliveryMethod.callout, SMSOptions(languages: ["en-US"]), CalloutOptions(languages: ["en-US"])),
        (DeliveryMethod.sms, SMSOptions?.none, CalloutOptions()),
        (DeliveryMethod.callout, SMSOptions(), CalloutOptions?.none),
        (DeliveryMethod.callout, SMSOptions(autofill: .domain), CalloutOptions?.none),
    ]

    @Test(arguments: mismatches)
    func channelMismatchIsThrownBeforeAnyRequest(method: DeliveryMethod, sms: SMSOptions?, callout: CalloutOptions?) async {
        let transport = MockTransport(status: 201, json: Fixtures.startSMS)
        let client = TestSupport.client(transport)
        await #expect(throws: VerificationError.channelMismatch(expected: method)) {
            try await client.start(destination: "+15551234567", method: method, sms: sms, callout: callout)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func healthyStartIsPendingWithNilErrorFields() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.startSMS)
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.id == Fixtures.id)
        #expect(verification.destination == "15551234567")
        #expect(verification.deliveryMethod == .sms)
        #expect(verification.status == .pending)
        #expect(!verification.status.isTerminal)
        #expect(verification.errorCode == nil)
        #expect(verification.errorDetail == nil)
        #expect(verification.reason == nil)
        #expect(verification.fee == Decimal(string: "0.05"))
        #expect(verification.expiresAt == TestSupport.date(Fixtures.farFuture))
    }

    @Test(arguments: [
        ("denied_by_callback", "your callback denied the request", Verification.Reason.deniedByCallback),
        ("denied_missing_callback_url", "application has no callback_url", .deniedMissingCallbackURL),
        ("denied_invalid_callback_response", "callback response was invalid", .deniedInvalidCallbackResponse),
        ("application_paused", "application is paused", .applicationPaused),
        ("destination_country_disabled", "destination country is disabled", .destinationCountryDisabled),
    ])
    func deniedStartIsReturnedNotThrown(code: String, detail: String, reason: Verification.Reason) async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.denied(errorCode: code, errorDetail: detail))
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.status == .denied)
        #expect(verification.status.isTerminal)
        #expect(verification.reason == reason)
        #expect(verification.errorCode == code)
        #expect(verification.errorDetail == detail)
    }

    @Test func unsupportedDestinationStartIsFailedNotThrown() async throws {
        let json = Fixtures.verification(
            status: "failed", errorCode: "destination_not_supported_for_channel",
            errorDetail: "destination not supported for provided delivery method")
        let (client, _) = TestSupport.client(status: 201, json: json)
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.status == .failed)
        #expect(verification.reason == .destinationNotSupportedForChannel)
    }

    @Test func unknownOutcomeCodeIsOther() async throws {
        let (client, _) = TestSupport.client(
            status: 201, json: Fixtures.denied(errorCode: "denied_by_moon_phase", errorDetail: "moon"))
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.reason == .other("denied_by_moon_phase"))
        #expect(verification.errorCode == "denied_by_moon_phase")
    }

    @Test func feeStringIsExactDecimal() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.verification(fee: "\"0.06\""))
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.fee == Decimal(string: "0.06"))
        #expect(verification.fee?.description == "0.06")
    }

    @Test func smsOptionsSendAutofillAndTemplateGroup() async throws {
        let transport = MockTransport()
        for _ in 0..<3 { transport.enqueue(status: 201, json: Fixtures.startSMS) }
        let client = TestSupport.client(transport)
        try await client.start(destination: "+15551234567", method: .sms, sms: .init(autofill: .domain))
        try await client.start(destination: "+15551234567", method: .sms, sms: .init(autofill: .disabled))
        try await client.start(
            destination: "+15551234567", method: .sms, sms: .init(languages: ["de-DE"], templateGroup: "checkout"))
        let blocks = try transport.requests.map { try #require(try TestSupport.data($0)["sms"] as? [String: Any]) }
        #expect(blocks[0]["autofill"] as? [String: String] == ["type": "domain"])
        #expect(blocks[0].count == 1)
        #expect(blocks[1]["autofill"] as? [String: String] == ["type": "none"])
        #expect(blocks[2]["template_group"] as? String == "checkout")
        #expect(blocks[2]["autofill"] == nil)
        #expect(blocks[2]["languages"] as? [String] == ["de-DE"])
    }

    @Test func calloutOptionsSendTemplateGroup() async throws {
        let (client, transport) = TestSupport.client(status: 201, json: Fixtures.startCallout())
        try await client.start(destination: "+15551234567", method: .callout, callout: .init(templateGroup: "checkout"))
        let block = try #require(try TestSupport.firstData(transport)["callout"] as? [String: Any])
        #expect(block["template_group"] as? String == "checkout")
        #expect(block["languages"] == nil)
    }

    @Test func customIsSentOnlyWhenNotEmpty() async throws {
        let transport = MockTransport()
        for _ in 0..<3 { transport.enqueue(status: 201, json: Fixtures.startSMS) }
        let client = TestSupport.client(transport)
        try await client.start(destination: "+15551234567", method: .sms, custom: "signup-flow-b")
        try await client.start(destination: "+15551234567", method: .sms, custom: "")
        try await client.start(destination: "+15551234567", method: .sms, custom: nil)
        let data = try transport.requests.map(TestSupport.data)
        #expect(data[0]["custom"] as? String == "signup-flow-b")
        #expect(data[1]["custom"] == nil)
        #expect(data[2]["custom"] == nil)
    }

    @Test func otherMethodIsSentRaw() async throws {
        let (client, transport) = TestSupport.client(status: 422, json: Fixtures.errorBody([
            ("delivery_method_inclusion", "delivery method is not included in the list"),
        ]))
        await #expect(throws: APIError.validationFailed([
            .init(code: "delivery_method_inclusion", detail: "delivery method is not included in the list"),
        ])) {
            try await client.start(destination: "+15551234567", method: .other("whatsapp"))
        }
        #expect(try TestSupport.firstData(transport)["delivery_method"] as? String == "whatsapp")
    }
}
