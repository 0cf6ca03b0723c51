import Foundation
import Testing
@testable import GatehouseVerification

@Suite struct ExpiryTests {
    @Test func fractionalSecondsParse() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.verification(expiresAt: Fixtures.fractional))
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.expiresAt == TestSupport.date(Fixtures.fractional))
        #expect(verification.expiresAt.timeIntervalSince(TestSupport.date("2026-07-13T12:00:00Z")) > 0.12)
    }

    @Test func plainSecondsParse() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.verification(expiresAt: "2026-08-27T13:19:20Z"))
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.expiresAt == Date(timeIntervalSince1970: 1_787_836_760))
    }

    @Test func offsetParses() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.verification(expiresAt: "2026-08-27T15:19:20+02:00"))
        let verification = try await client.start(destination: "+15551234567", method: .sms)
        #expect(verification.expiresAt == Date(timeIntervalSince1970: 1_787_836_760))
    }

    @Test func isExpiredUsesTheDeviceClock() {
        #expect(TestSupport.handle(expiresAt: TestSupport.date(Fixtures.farPast)).isExpired)
        #expect(!TestSupport.handle(expiresAt: TestSupport.date(Fixtures.farFuture)).isExpired)
        #expect(TestSupport.handle(expiresAt: Date().addingTimeInterval(-1)).isExpired)
    }

    @Test(arguments: [nil, "tomorrow", "2026-13-45T99:99:99Z", ""])
    func startWithoutUsableExpiryIsUnexpectedResponse(expiresAt: String?) async {
        let (client, _) = TestSupport.client(status: 201, json: Fixtures.verification(expiresAt: expiresAt))
        await #expect(throws: APIError.unexpectedResponse("missing or invalid expires_at on start")) {
            try await client.start(destination: "+15551234567", method: .sms)
        }
    }

    @Test func startWithNonStringExpiryIsUnexpectedResponse() async {
        let json = Fixtures.verification(expiresAt: nil, extra: #""expires_at":1787836760"#)
        let (client, _) = TestSupport.client(status: 201, json: json)
        await #expect(throws: APIError.unexpectedResponse("missing or invalid expires_at on start")) {
            try await client.start(destination: "+15551234567", method: .sms)
        }
    }

    @Test(arguments: [nil, "tomorrow"])
    func statusWithoutUsableExpiryHasNilExpiresAt(expiresAt: String?) async throws {
        let (client, _) = TestSupport.client(status: 200, json: Fixtures.verification(expiresAt: expiresAt))
        #expect(try await client.status(TestSupport.handle()).expiresAt == nil)
    }
}
