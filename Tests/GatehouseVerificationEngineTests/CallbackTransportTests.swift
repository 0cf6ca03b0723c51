import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// The request callback over the real outbound client, against an upstream that misbehaves:
/// every start is decided within the callback's timeout, and a redirect is never followed
/// (it would carry the application's signature to whatever host it names).
@Suite struct CallbackTransportTests {
    @Test(arguments: TestDatabaseKind.available)
    func aHostileCallbackNeverHoldsAStartAndIsNeverFollowed(_ kind: TestDatabaseKind) async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        var settings = VerificationSettings()
        settings.callbackTimeout = 1
        let harness = try await EngineHarness(kind, settings: settings, http: CurlHTTPClient())
        defer { harness.close() }
        let cases: [(String, VerificationOutcome?)] = [
            ("/allow", nil),
            ("/unauthorized/basic", .deniedInvalidCallbackResponse),
            ("/unauthorized/bearer", .deniedInvalidCallbackResponse),
            ("/silent", .deniedInvalidCallbackResponse),
            ("/head-only", .deniedInvalidCallbackResponse),
            ("/trickle", .deniedInvalidCallbackResponse),
            ("/stream?bytes=100000", .deniedInvalidCallbackResponse),
            ("/redirect?to=/allow", .deniedInvalidCallbackResponse),
        ]
        for (index, (path, outcome)) in cases.enumerated() {
            let (app, _) = try await harness.engine.createApplication(
                tenantID: harness.tenantID,
                settings: { var s = OTPApplicationSettings(); s.callbackURL = .some(upstream.url(path).absoluteString); s.cooldownSeconds = 0; return s }())
            let record = try await harness.engine.start(
                StartRequest(destination: "+4474001234\(50 + index)", deliveryMethod: "sms"), caller: VerificationCaller(application: app, mode: .public))
            #expect(record.outcome(at: harness.clock.now) == outcome, "\(path)")
        }
    }
}
