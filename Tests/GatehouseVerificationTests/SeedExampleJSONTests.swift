import Foundation
import Testing
@testable import GatehouseVerification

/// The JSON examples of the SDK 1.2 documentation (seed 001) and of the wire notes, against what
/// the SDK sends and decodes. Requests compare as parsed JSON, not as text.
@Suite struct SeedExampleJSONTests {
    private func snippets(_ transport: MockTransport) -> SeedSnippets {
        SeedSnippets(client: TestSupport.client(transport), verification: TestSupport.handle())
    }

    @Test func germanSMSRequestMatchesTheDocumentation() async throws {
        let transport = MockTransport(status: 201, json: Fixtures.startSMS)
        try await snippets(transport).germanSMS()
        let documented = """
            {
              "data": {
                "destination": "+4915112345678",
                "delivery_method": "sms",
                "sms": {
                  "languages": ["de-DE"]
                }
              }
            }
            """
        let body = try #require(transport.requests.first?.httpBody)
        #expect(try TestSupport.canonical(body) == TestSupport.canonical(documented))
    }

    @Test func portugueseCalloutRequestMatchesTheDocumentation() async throws {
        let transport = MockTransport(status: 201, json: Fixtures.startCallout(language: "pt-BR"))
        try await snippets(transport).portugueseCallout()
        let documented = """
            {
              "data": {
                "destination": "+5511987654321",
                "delivery_method": "callout",
                "callout": {
                  "languages": ["pt-BR", "pt-PT"]
                }
              }
            }
            """
        let body = try #require(transport.requests.first?.httpBody)
        #expect(try TestSupport.canonical(body) == TestSupport.canonical(documented))
    }

    @Test func autofillOptionWireValues() async throws {
        let transport = MockTransport()
        for _ in 0..<2 { transport.enqueue(status: 201, json: Fixtures.startSMS) }
        let client = TestSupport.client(transport)
        try await client.start(destination: "+4915112345678", method: .sms, sms: .init(autofill: .domain))
        try await client.start(destination: "+4915112345678", method: .sms, sms: .init(autofill: .disabled))
        let bodies = try transport.requests.map { try TestSupport.canonical(try #require($0.httpBody)) }
        #expect(bodies == [
            try TestSupport.canonical(#"{"data":{"destination":"+4915112345678","delivery_method":"sms","sms":{"autofill":{"type":"domain"}}}}"#),
            try TestSupport.canonical(#"{"data":{"destination":"+4915112345678","delivery_method":"sms","sms":{"autofill":{"type":"none"}}}}"#),
        ])
    }

    @Test func wireNotesExampleResponseDecodes() async throws {
        let json = """
            {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678",
             "delivery_method":"sms","fee":"0.06","status":"pending","error_code":null,"error_detail":null,
             "expires_at":"2026-08-27T13:19:20Z",
             "sms":{"template":"Your code is {{CODE}}","language":"de-DE","interception_timeout":300,
                    "code_length":6,"app_hash":"A1b2C3d4E5f"}}}
            """
        let (client, _) = TestSupport.client(status: 201, json: json)
        let verification = try await client.start(destination: "+4915112345678", method: .sms)
        #expect(verification == Verification(
            id: "01a0435e-2b71-7762-b0c2-22fabc5ed19c", destination: "4915112345678", deliveryMethod: .sms,
            expiresAt: Date(timeIntervalSince1970: 1_787_836_760), status: .pending, fee: Decimal(string: "0.06"),
            details: .sms(.init(
                template: "Your code is {{CODE}}", language: "de-DE", codeLength: 6,
                autofill: .init(type: .appHash, value: "A1b2C3d4E5f")))))
    }

    @Test func happyPathExchangeOfTheWireNotes() async throws {
        let transport = MockTransport()
        transport.enqueue(status: 201, json: Fixtures.verification(destination: "15551234567"))
        transport.enqueue(status: 200, json: Fixtures.verification(destination: "15551234567", status: "verified"))
        let client = TestSupport.client(transport, auth: .public(appKey: "APPKEY"))
        let verification = try await client.start(destination: "+15551234567", method: .sms, sms: .init(languages: ["en-US"]))
        let result = try await client.verify(verification, code: "123456")
        #expect(result.status == .verified)
        let bodies = try transport.requests.map { try TestSupport.canonical(try #require($0.httpBody)) }
        #expect(bodies == [
            try TestSupport.canonical(#"{"data":{"destination":"+15551234567","delivery_method":"sms","sms":{"languages":["en-US"]}}}"#),
            try TestSupport.canonical(#"{"data":{"delivery_method":"sms","code":"123456"}}"#),
        ])
        #expect(transport.requests[0].value(forHTTPHeaderField: "Authorization") == "Application APPKEY")
    }

    @Test func seedLimitsTableDecodes() async throws {
        let rows: [(String, APIErrorCode)] = [
            ("destination_in_cooldown", .destinationInCooldown), ("rate_limit_per_ip", .rateLimitPerIP),
            ("rate_limit_failed_auth", .rateLimitFailedAuth), ("rate_limit_per_account", .rateLimitPerAccount),
            ("rate_limit_public_per_account", .rateLimitPublicPerAccount), ("volume_limit_reached", .volumeLimitReached),
        ]
        for (slug, code) in rows { #expect(APIErrorItem(code: slug, detail: "").known == code) }
    }

    @Test func seedNewCodesDecode() {
        #expect(APIErrorItem(code: "sms_domain_not_configured", detail: "").known == .smsDomainNotConfigured)
        #expect(APIErrorItem(code: "template_group_not_found", detail: "").known == .templateGroupNotFound)
        #expect(APIErrorItem(code: "custom_too_long", detail: "").known == .customTooLong)
        #expect(APIErrorItem(code: "insufficient_balance", detail: "").known == .insufficientBalance)
        #expect(APIErrorItem(code: "balance_insufficient", detail: "").known == .balanceInsufficient)
    }
}
