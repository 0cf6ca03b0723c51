import Foundation
import Testing
@testable import GatehouseVerification
import GatehouseFormats

@Suite struct RedactionTests {
    private func loggedLines(
        status: Int = 200, json: String = Fixtures.startSMS, _ call: (VerificationClient) async throws -> Void
    ) async -> [String] {
        let logger = StubLogger()
        let transport = MockTransport(status: status, json: json)
        let client = TestSupport.client(transport, configuration: .init(logger: logger))
        try? await call(client)
        return logger.lines
    }

    @Test func logsMethodURLAndStatusOnly() async {
        let lines = await loggedLines { _ = try await $0.status(TestSupport.handle(id: Fixtures.id)) }
        #expect(lines == [
            "→ GET https://verify.example.com/api/v1/verifications/\(Fixtures.id)",
            "← 200",
        ])
    }

    @Test func neverLogsBodiesOrHeaders() async {
        let lines = await loggedLines(status: 201) {
            _ = try await $0.start(destination: "+15551234567", method: .sms, custom: "secret-context")
        }
        #expect(lines == ["→ POST https://verify.example.com/api/v1/verifications", "← 201"])
        #expect(!lines.joined().contains("secret"))
        #expect(!lines.joined().contains("Basic"))
    }

    @Test func byNumberURLIsMasked() async {
        let lines = await loggedLines { _ = try await $0.verify(number: "+1 (555) 123-4567", code: "123456", method: .sms) }
        #expect(lines.first == "→ PUT https://verify.example.com/api/v1/verifications/by_number/«redacted-number»")
        #expect(!lines.joined().contains("5551234567"))
    }

    @Test func idWithDigitRunsIsMaskedButUUIDIsNot() async {
        let lines = await loggedLines { _ = try await $0.status(TestSupport.handle(id: "123456-aaaa")) }
        #expect(lines.first == "→ GET https://verify.example.com/api/v1/verifications/«redacted-code»-aaaa")
    }

    @Test func errorStatusIsLogged() async {
        let lines = await loggedLines(status: 422, json: Fixtures.errorBody([("code_invalid", "code is invalid")])) {
            _ = try await $0.verify(TestSupport.handle(), code: "123456")
        }
        #expect(lines.last == "← 422")
    }

    @Test func transportFailureLogsOnlyTheRequest() async {
        let logger = StubLogger()
        let client = TestSupport.client(MockTransport(error: URLError(.timedOut)), configuration: .init(logger: logger))
        _ = try? await client.status(TestSupport.handle(id: Fixtures.id))
        #expect(logger.lines.count == 1)
    }

    @Test func noLoggerNoOutput() async throws {
        let transport = MockTransport(status: 200, json: Fixtures.startSMS)
        _ = try await TestSupport.client(transport).status(TestSupport.handle())
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: 4...8)
    func everyCodeLengthIsMasked(length: Int) {
        let code = String(repeating: "7", count: length)
        let redacted = Redactor.redact("code \(code) sent")
        #expect(!redacted.contains(code))
    }

    @Test func phoneAndCodeMaskedTokensAndStatusKept() {
        #expect(Redactor.redact("+15551234567 got 123456") == "«redacted-number» got «redacted-code»")
        #expect(Redactor.redact("HTTP 200 token abc") == "HTTP 200 token abc")
        #expect(Redactor.redact("year 2026") == "year «redacted-code»")
        #expect(Redactor.redact("15551234567") == "«redacted-number»")
    }

    @Test func uuidPassesUntouchedAndNeighboursAreMasked() {
        let uuid = "01a0435e-2b71-7762-b0c2-419283746501"
        #expect(Redactor.redact(uuid) == uuid)
        #expect(Redactor.redact("\(uuid) 123456 +15551234567") == "\(uuid) «redacted-code» «redacted-number»")
        #expect(Redactor.redact("\(uuid)/123456") == "\(uuid)/«redacted-code»")
        #expect(Redactor.redact("01a0435e2b717762b0c2419283746501") != "01a0435e2b717762b0c2419283746501")
        #expect(Redactor.redact("\(uuid)9") != "\(uuid)9")
    }
}
