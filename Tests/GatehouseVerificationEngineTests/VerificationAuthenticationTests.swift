import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine
import GatehouseFormats

@Suite struct VerificationAuthenticationTests {
    func credentials(_ authorization: String?, timestamp: String? = nil, method: String = "GET", path: String = "/api/v1/verifications/x",
                     body: [UInt8] = [], contentType: String? = nil, ip: String = "192.0.2.1") -> TestCall {
        TestCall(
            authorization: authorization, timestamp: timestamp, method: method, path: path, body: body, contentType: contentType, ip: ip)
    }

    @Test(arguments: TestDatabaseKind.available)
    func threeModesAndTheApplicationMinimum(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        var settings = OTPApplicationSettings()
        settings.minimumAuth = .public
        let (app, secret) = try await harness.engine.createApplication(tenantID: harness.tenantID, settings: settings)
        let engine = harness.engine
        #expect(try await engine.authenticate(credentials("Application \(app.appKey)")).mode == .public)
        let basic = "Basic " + Base64.encode(Array("\(app.appKey):\(secret)".utf8))
        #expect(try await engine.authenticate(credentials(basic)).mode == .basic)

        let timestamp = String(Int64(harness.clock.now.timeIntervalSince1970))
        let body = Array(#"{"data":{}}"#.utf8)
        let signature = RequestSigner.sign(
            key: RequestSigner.key(fromSecret: secret)!, method: "POST", body: body, contentType: "application/json",
            timestamp: timestamp, path: "/api/v1/verifications")
        let signed = credentials(
            "Application \(app.appKey):\(signature)", timestamp: timestamp, method: "POST", path: "/api/v1/verifications", body: body,
            contentType: "application/json")
        #expect(try await engine.authenticate(signed).mode == .application)

        // A tampered body, a stale timestamp, a wrong secret: all the same 401.
        var tampered = signed
        tampered.body = Array(#"{"data":{"x":1}}"#.utf8)
        await #expect(throws: VerificationFailure(.unauthorized)) { try await engine.authenticate(tampered) }
        harness.clock.advance(by: 301)
        await #expect(throws: VerificationFailure(.unauthorized)) { try await engine.authenticate(signed) }
        let wrongSecret = "Basic " + Base64.encode(Array("\(app.appKey):nope".utf8))
        await #expect(throws: VerificationFailure(.unauthorized)) { try await engine.authenticate(credentials(wrongSecret)) }

        // Raising the minimum refuses weaker modes.
        var raise = OTPApplicationSettings()
        raise.minimumAuth = .basic
        _ = try await engine.updateApplication(tenantID: harness.tenantID, id: app.id, settings: raise)
        await #expect(throws: VerificationFailure(.unauthorized)) { try await engine.authenticate(credentials("Application \(app.appKey)")) }
        #expect(try await engine.authenticate(credentials(basic)).mode == .basic)
    }

    @Test(arguments: TestDatabaseKind.available)
    func failedAuthenticationsFromOneAddressAreLimited(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.failedAuthPerIP = 3
        let harness = try await EngineHarness(kind, settings: settings)
        defer { harness.close() }
        for _ in 0..<3 {
            await #expect(throws: VerificationFailure(.unauthorized)) { try await harness.engine.authenticate(credentials("Application nope")) }
        }
        await #expect(throws: VerificationFailure(.rateLimitFailedAuth, retryAfter: 60 - Int(harness.clock.now.timeIntervalSince1970) % 60)) {
            try await harness.engine.authenticate(credentials("Application nope"))
        }
        // Another address is not affected.
        await #expect(throws: VerificationFailure(.unauthorized)) {
            try await harness.engine.authenticate(credentials("Application nope", ip: "192.0.2.2"))
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func requestsPerAddressAreLimited(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.perIP = 2
        let harness = try await EngineHarness(kind, settings: settings)
        defer { harness.close() }
        let (app, _) = try await harness.engine.createApplication(tenantID: harness.tenantID, settings: OTPApplicationSettings())
        _ = try await harness.engine.authenticate(credentials("Application \(app.appKey)"))
        _ = try await harness.engine.authenticate(credentials("Application \(app.appKey)"))
        await #expect(throws: VerificationFailure.self) { try await harness.engine.authenticate(credentials("Application \(app.appKey)")) }
    }
}
