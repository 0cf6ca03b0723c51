import Foundation
import Testing
@testable import GatehouseVerification

/// Runs the documentation's snippets (see `SeedSnippets.swift`) over a mock client.
@Suite struct SeedSnippetTests {
    private func snippets(_ transport: MockTransport, auth: AuthorizationMethod = .public(appKey: "your-app-key")) -> SeedSnippets {
        SeedSnippets(client: TestSupport.client(transport, auth: auth), verification: TestSupport.handle(id: Fixtures.id))
    }

    @Test func quickStartVerifies() async throws {
        let transport = MockTransport()
        transport.enqueue(status: 201, json: Fixtures.startSMS)
        transport.enqueue(status: 200, json: Fixtures.verifiedSMS())
        let snippets = snippets(transport)
        try await snippets.quickStart()
        #expect(snippets.output == ["verified"])
        #expect(transport.requests.map(\.httpMethod) == ["POST", "PUT"])
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Application your-app-key")
        #expect((try TestSupport.data(transport.requests[0])["sms"] as? [String: Any])?["languages"] as? [String] == ["en-US"])
        #expect(try TestSupport.data(transport.requests[1])["code"] as? String == "123456")
    }

    @Test func quickStartReportsADeniedStart() async throws {
        let transport = MockTransport(status: 201, json: Fixtures.denied(
            errorCode: "denied_by_callback", errorDetail: "your callback denied the request"))
        let snippets = snippets(transport)
        try await snippets.quickStart()
        #expect(snippets.output == ["your callback denied the request"])
        #expect(transport.requests.count == 1)
    }

    @Test func quickStartReportsAFailedCode() async throws {
        let transport = MockTransport()
        transport.enqueue(status: 201, json: Fixtures.startSMS)
        transport.enqueue(status: 200, json: Fixtures.failedTooManyAttempts)
        let snippets = snippets(transport)
        try await snippets.quickStart()
        #expect(snippets.output == ["too many attempts"])
    }

    @Test func optionSnippetsSendTheirBlocks() async throws {
        let transport = MockTransport()
        for _ in 0..<5 { transport.enqueue(status: 201, json: Fixtures.startSMS) }
        let snippets = snippets(transport)
        try await snippets.smsAutofill()
        try await snippets.templateGroups()
        try await snippets.customData()
        let data = try transport.requests.map(TestSupport.data)
        #expect(try TestSupport.canonical(JSONSerialization.data(withJSONObject: data[0])) == TestSupport.canonical(
            #"{"destination":"+4915112345678","delivery_method":"sms","sms":{"autofill":{"type":"domain"}}}"#))
        #expect(try TestSupport.canonical(JSONSerialization.data(withJSONObject: data[1])) == TestSupport.canonical(
            #"{"destination":"+4915112345678","delivery_method":"sms","sms":{"template_group":"checkout"}}"#))
        #expect(try TestSupport.canonical(JSONSerialization.data(withJSONObject: data[2])) == TestSupport.canonical(
            #"{"destination":"+4915112345678","delivery_method":"callout","callout":{"template_group":"checkout"}}"#))
        #expect(try TestSupport.canonical(JSONSerialization.data(withJSONObject: data[3])) == TestSupport.canonical(
            #"{"destination":"+4915112345678","delivery_method":"sms","custom":"signup-flow-b"}"#))
    }

    @Test(arguments: [
        (Fixtures.startSMS, "present: \(Fixtures.id)"),
        (Fixtures.denied(errorCode: "application_paused", errorDetail: "application is paused"), "show: application is paused"),
        (Fixtures.verification(status: "failed", errorCode: "destination_not_supported_for_channel", errorDetail: nil),
         "show: verification failed"),
        (Fixtures.withStatus("queued"), "show: unexpected start status: other(\"queued\")"),
    ])
    func deniedStartSnippet(json: String, expected: String) async throws {
        let snippets = snippets(MockTransport(status: 201, json: json))
        try await snippets.deniedStart()
        #expect(snippets.output == [expected])
    }

    @Test func statusSnippetStopsPollingOnTerminal() async throws {
        let transport = MockTransport()
        transport.enqueue(status: 200, json: Fixtures.startSMS)
        transport.enqueue(status: 200, json: Fixtures.failedSuperseded)
        let snippets = snippets(transport)
        try await snippets.currentStatus()
        #expect(snippets.output.isEmpty)
        try await snippets.currentStatus()
        #expect(snippets.output == ["stopPolling"])
    }

    @Test func byNumberSnippets() async throws {
        let transport = MockTransport()
        transport.enqueue(status: 200, json: Fixtures.startSMS)
        transport.enqueue(status: 200, json: Fixtures.verifiedSMS())
        let snippets = snippets(transport)
        #expect(try await snippets.statusByNumber().status == .pending)
        #expect(try await snippets.verifyByNumber().status == .verified)
        #expect(transport.requests.map { $0.url?.path } == [
            "/api/v1/verifications/by_number/4915112345678", "/api/v1/verifications/by_number/4915112345678",
        ])
        #expect(transport.requests.map(\.httpMethod) == ["GET", "PUT"])
    }

    @Test func environmentAndLoggingSnippetsBuildClients() {
        let snippets = snippets(MockTransport())
        // The resolved URL is checked in EnvironmentTests, which alone may change the defaults.
        #expect(snippets.sandboxClient().factory.auth == .public(appKey: "your-sandbox-app-key"))
        let logging = snippets.loggingClient()
        #expect(logging.logger is ConsoleLogger)
        #expect(logging.factory.auth == .public(appKey: "your-app-key"))
        #expect(logging.factory.timeout == 30)
    }

    @Test func detailsSnippet() {
        let snippets = snippets(MockTransport())
        snippets.readDetails(VerificationResult(
            id: "a", destination: "1", deliveryMethod: .sms, status: .pending,
            details: .sms(.init(template: "Your code is {{CODE}}", language: "de-DE", codeLength: 6))))
        snippets.readDetails(VerificationResult(
            id: "b", destination: "1", deliveryMethod: .callout, status: .pending, details: .callout(.init())))
        #expect(snippets.output == ["Your code is {{CODE}}", "de-DE", "6", "no language", "no code length"])
    }

    @Test(arguments: [
        (422, Fixtures.errorBody([("code_invalid", "code is invalid")]), "wrong code"),
        (422, Fixtures.errorBody([("delivery_method_invalid", "delivery method is invalid")]), "wrong delivery method"),
        (422, Fixtures.errorBody([("quantum", "q")]), "unmodelled code: quantum - q"),
        (422, Fixtures.errorBody([("already_verified", "a")]), "already_verified: a"),
        (404, Fixtures.errorBody([("not_found", "not found")]), "verification not found"),
        (401, "", "authentication failed"),
        (402, Fixtures.errorBody([("insufficient_balance", "insufficient balance")]), "insufficient balance"),
    ])
    func errorHandlingSnippet(status: Int, json: String, expected: String) async throws {
        let snippets = snippets(MockTransport(status: status, json: json))
        try await snippets.handleErrors()
        #expect(snippets.output == [expected])
    }

    @Test func errorHandlingSnippetTransportAndDecoding() async throws {
        let transport = MockTransport([.failure(URLError(.notConnectedToInternet))])
        transport.enqueue(status: 200, json: "garbage")
        let snippets = snippets(transport)
        try await snippets.handleErrors()
        try await snippets.handleErrors()
        #expect(snippets.output.count == 2)
        #expect(snippets.output[0].hasPrefix("network request failed: "))
        #expect(snippets.output[1].hasPrefix("response could not be decoded: could not decode response body"))
    }

    @Test func limitsSnippet() async throws {
        let transport = MockTransport()
        transport.enqueue(status: 429, json: Fixtures.errorBody([("volume_limit_reached", "v")]), headers: ["Retry-After": "259200"])
        transport.enqueue(status: 429, json: Fixtures.errorBody([("destination_in_cooldown", "c")]), headers: ["Retry-After": "30"])
        transport.enqueue(status: 429, json: Fixtures.errorBody([("rate_limit_per_ip", "r")]))
        let snippets = snippets(transport)
        for _ in 0..<3 { try await snippets.handleLimits() }
        #expect(snippets.output == ["showLimitReached", "scheduleRetry: 30.0"])
    }

    @Test func cancellationSnippet() async throws {
        let snippets = SeedSnippets(
            client: TestSupport.client(SuspendingTransport()), verification: TestSupport.handle(id: Fixtures.id))
        let task = try await snippets.cancellation()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
