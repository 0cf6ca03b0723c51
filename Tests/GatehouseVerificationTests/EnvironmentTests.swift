import Foundation
import Testing
@testable import GatehouseVerification

/// Serialized: these tests set the process-wide default URLs.
@Suite(.serialized) struct EnvironmentTests {
    @Test func productionAndSandboxDefaultToLocalGatehouse() {
        let saved = (VerifyEnvironment.defaultProductionURL, VerifyEnvironment.defaultSandboxURL)
        defer { (VerifyEnvironment.defaultProductionURL, VerifyEnvironment.defaultSandboxURL) = saved }
        #expect(VerifyEnvironment.localURL.absoluteString == "http://127.0.0.1:8080")
        #expect(saved.0 == VerifyEnvironment.localURL)
        #expect(saved.1 == VerifyEnvironment.localURL)
        #expect(VerifyEnvironment.production.baseURL == VerifyEnvironment.localURL)
        #expect(VerifyEnvironment.sandbox.baseURL == VerifyEnvironment.localURL)
    }

    @Test func defaultsAreSettable() {
        let saved = (VerifyEnvironment.defaultProductionURL, VerifyEnvironment.defaultSandboxURL)
        defer { (VerifyEnvironment.defaultProductionURL, VerifyEnvironment.defaultSandboxURL) = saved }
        VerifyEnvironment.defaultProductionURL = URL(string: "https://verify.gatehouse.example")!
        VerifyEnvironment.defaultSandboxURL = URL(string: "https://sandbox.gatehouse.example/base")!
        #expect(VerifyEnvironment.production.baseURL.absoluteString == "https://verify.gatehouse.example")
        #expect(VerifyEnvironment.sandbox.baseURL.absoluteString == "https://sandbox.gatehouse.example/base")
    }

    @Test func customPassesThrough() {
        let url = URL(string: "https://proxy.example/verification")!
        #expect(VerifyEnvironment.custom(url).baseURL == url)
    }

    @Test func sandboxClientSendsToTheSandboxURL() async throws {
        let saved = VerifyEnvironment.defaultSandboxURL
        defer { VerifyEnvironment.defaultSandboxURL = saved }
        VerifyEnvironment.defaultSandboxURL = URL(string: "https://sandbox.gatehouse.example")!
        let transport = MockTransport(status: 201, json: Fixtures.startSMS)
        let client = VerificationClient(environment: .sandbox, auth: .public(appKey: "k"), configuration: .init(), transport: transport)
        try await client.start(destination: "+15551234567", method: .sms)
        #expect(transport.requests.first?.url?.absoluteString == "https://sandbox.gatehouse.example/api/v1/verifications")
    }

    @Test func customClientKeepsBasePath() async throws {
        let transport = MockTransport(status: 200, json: Fixtures.startSMS)
        let client = VerificationClient(
            environment: .custom(URL(string: "https://h.example/verification")!), auth: .public(appKey: "k"),
            configuration: .init(), transport: transport)
        _ = try await client.status(number: "+15551234567")
        #expect(
            transport.requests.first?.url?.absoluteString
                == "https://h.example/verification/api/v1/verifications/by_number/15551234567")
    }

    @Test func publicInitDefaultsToProduction() {
        // Builds the real URLSession transport; no request is sent.
        let client = VerificationClient(auth: .public(appKey: "k"))
        #expect(client.factory.baseURL == VerifyEnvironment.defaultProductionURL)
        #expect(client.factory.timeout == 30)
    }
}
