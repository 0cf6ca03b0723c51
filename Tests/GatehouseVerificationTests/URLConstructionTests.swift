import Foundation
import Testing
@testable import GatehouseVerification

@Suite struct URLConstructionTests {
    private func url(base: String, _ call: (VerificationClient) async throws -> Void) async throws -> String? {
        let transport = MockTransport(status: 200, json: Fixtures.startSMS)
        let client = TestSupport.client(transport, baseURL: URL(string: base)!)
        try await call(client)
        return transport.requests.first?.url?.absoluteString
    }

    @Test(arguments: [
        ("https://h", "https://h/api/v1/verifications/abc"),
        ("https://h/", "https://h/api/v1/verifications/abc"),
        ("https://h/gateway", "https://h/gateway/api/v1/verifications/abc"),
        ("https://h/verification/", "https://h/verification/api/v1/verifications/abc"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/api/v1/verifications/abc"),
    ])
    func baseURLKeepsItsPathWithoutDoubleSlash(base: String, expected: String) async throws {
        let url = try await url(base: base) { _ = try await $0.status(TestSupport.handle(id: "abc")) }
        #expect(url == expected)
    }

    @Test func idIsPercentEncodedAsOneSegment() async throws {
        let url = try await url(base: "https://h") { _ = try await $0.status(TestSupport.handle(id: "not a/uuid")) }
        #expect(url == "https://h/api/v1/verifications/not%20a%2Fuuid")
    }

    @Test func publicAuthHeader() {
        #expect(AuthorizationMethod.public(appKey: "k").headerValue == "Application k")
    }

    @Test func basicAuthHeaderIsBase64OfKeyColonSecret() {
        #expect(AuthorizationMethod.basic(appKey: "key", secret: "secret").headerValue == "Basic a2V5OnNlY3JldA==")
    }

    @Test func headersOnEveryRequest() async throws {
        let transport = MockTransport()
        for _ in 0..<3 { transport.enqueue(status: 200, json: Fixtures.startSMS) }
        let client = TestSupport.client(transport, auth: .public(appKey: "app-key"))
        _ = try await client.start(destination: "+15551234567", method: .sms)
        _ = try await client.status(TestSupport.handle())
        _ = try await client.verify(TestSupport.handle(), code: "1234")
        for request in transport.requests {
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Application app-key")
            #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
            #expect(request.value(forHTTPHeaderField: "User-Agent") == "gatehouse-verification-swift/\(SDKVersion.current)")
        }
        let contentTypes = transport.requests.map { $0.value(forHTTPHeaderField: "Content-Type") }
        #expect(contentTypes == ["application/json", nil, "application/json"])
    }

    @Test func timeoutReachesTheRequest() async throws {
        let transport = MockTransport(status: 200, json: Fixtures.startSMS)
        let client = TestSupport.client(transport, configuration: .init(timeout: 7))
        _ = try await client.status(TestSupport.handle())
        #expect(transport.requests.first?.timeoutInterval == 7)
    }

    @Test func defaultTimeoutIsThirty() async throws {
        let transport = MockTransport(status: 200, json: Fixtures.startSMS)
        _ = try await TestSupport.client(transport).status(TestSupport.handle())
        #expect(transport.requests.first?.timeoutInterval == 30)
    }

    @Test(arguments: ["+1 (555) 123-4567", "+1.555.1234567", "15551234567", "+1 555 123 4567\u{0663}"])
    func byNumberPathIsDigitsOnly(number: String) async throws {
        let url = try await url(base: "https://h") { _ = try await $0.status(number: number) }
        #expect(url == "https://h/api/v1/verifications/by_number/15551234567")
    }

    @Test func normalizerKeepsOnlyASCIIDigits() throws {
        #expect(try PhoneNumberNormalizer.digits("+49 151 1234 5678") == "4915112345678")
        #expect(throws: VerificationError.invalidNumber) { try PhoneNumberNormalizer.digits("\u{0663}\u{0664}") }
        #expect(throws: VerificationError.invalidNumber) { try PhoneNumberNormalizer.digits("") }
    }
}
