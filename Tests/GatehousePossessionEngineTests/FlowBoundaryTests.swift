import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehousePossessionEngine

/// Where flows meet the rest of the system: disabled tenants, hostile ids, a Validate during
/// the carrier check, sandboxes that send nothing, operators on private addresses, and
/// flows deleted once they are over.
struct FlowBoundaryTests {
    func refusal(_ body: () async throws -> some Any) async -> PossessionError? {
        do { _ = try await body() } catch let error as PossessionError { return error } catch { Issue.record(error) }
        return nil
    }

    @Test(arguments: TestDatabaseKind.available)
    func aDisabledTenantsClientsTokensAndFlowsStop(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let client = try await h.engine.issueClient(tenantID: h.tenantID, label: "backend")
        let token = try await h.engine.accessToken(clientID: client.client.id, clientSecret: client.secret)
        let started = try await h.start()
        let other = try await h.start()
        let session = try await h.engine.begin(authToken: other.authToken, testMode: false)
        try await TenantDirectory(environment: h.engine.environment).disableTenant(id: h.tenantID)
        #expect(await refusal { try await h.engine.accessToken(clientID: client.client.id, clientSecret: client.secret) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.caller(bearer: token.token) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.begin(authToken: started.authToken, testMode: false) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.otpStart(deviceToken: session.deviceToken, phoneNumber: nil) }?.code == .unauthorized)
    }

    @Test(arguments: TestDatabaseKind.available)
    func hostileIdsAreNoSuchThingOnBothDatabases(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        for id in ["a\u{0}b", String(repeating: "9", count: 5000), "00000000-0000-0000-0000-00000000000\u{0}"] {
            #expect(await refusal { try await h.engine.validate(caller: h.caller, correlationId: id) }?.code == .noSuchFlow)
        }
        let client = try await h.engine.issueClient(tenantID: h.tenantID, label: "backend")
        #expect(await refusal { try await h.engine.accessToken(clientID: client.client.id + ".\u{0}", clientSecret: client.secret) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.caller(bearer: "ghpt_\(String(repeating: "a", count: 32)).\u{0}") }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.otpStart(deviceToken: "ghpd_\(String(repeating: "a", count: 32)).\u{0}", phoneNumber: nil) }?.code == .unauthorized)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aValidateDuringTheCarrierCheckLeavesItsEvidenceStanding(_ kind: TestDatabaseKind) async throws {
        let carrier = ScriptedCarrier()
        let h = try await PossessionHarness(kind, carriers: [carrier])
        defer { h.close() }
        try await h.useCarrier()
        let s = try await h.engine.begin(authToken: try await h.start().authToken, testMode: false)
        let state = try #require(s.progress.carrierCheck?.url?.absoluteString.components(separatedBy: "state=").last)
        let hold = Latch()
        carrier.hold = hold
        async let decided = h.engine.carrierEvidence(deviceToken: s.deviceToken, CarrierEvidence(provider: "camara", code: "c", state: state))
        #expect(await carrier.entered.wait(timeout: .seconds(30)))
        #expect(try await h.engine.validate(caller: h.caller, correlationId: s.authId).next == "v3-validate")
        hold.signal()
        #expect(try await decided.next == .done)
        #expect(try await h.engine.validate(caller: h.caller, correlationId: s.authId).success)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSandboxSendsNoCodeEvenOutsideTestMode(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        let s = try await h.engine.begin(authToken: try await h.start(StartInput(flowType: "mobile", phoneNumber: "+19005550100")).authToken, testMode: false)
        #expect(try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil).otpLength == 4)
        try await h.dispatcher.drain()
        #expect(h.delivery.messages.isEmpty)
        #expect(try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: "1234").next == .done)
    }

    @Test(arguments: TestDatabaseKind.available)
    func developmentCarriersAreForDevelopmentServers(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let local = CamaraSettings(
            authorizationEndpoint: URL(string: "http://127.0.0.1:9/authorize")!, tokenEndpoint: URL(string: "http://127.0.0.1:9/token")!,
            apiBase: URL(string: "http://127.0.0.1:9")!, clientId: "gh", redirectUri: URL(string: "http://127.0.0.1/back")!, development: true)
        let error = await refusal { try await h.engine.saveSettings(tenantID: h.tenantID, PossessionSettings(carrier: local), carrierSecret: "s") }
        #expect(error?.field == "carrier.development")
        var plain = local
        plain.development = false
        #expect(await refusal { try await h.engine.saveSettings(tenantID: h.tenantID, PossessionSettings(carrier: plain), carrierSecret: "s") }?.code == .fieldInvalid)
    }

    @Test(arguments: TestDatabaseKind.available)
    func newFlowsBuyNoNewGuessesAtANumber(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        var exhausted = 0
        var limited: PossessionError?
        for _ in 0..<8 {
            let s = try await h.engine.begin(
                authToken: try await h.start(StartInput(flowType: "mobile", phoneNumber: PossessionHarness.number, allowOTPRetry: true)).authToken,
                testMode: false)
            do {
                _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
            } catch let error as PossessionError {
                limited = error
                break
            }
            let code = try await h.code()
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<3 {
                if await refusal({ try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: wrong) })?.code == .otpAttemptsExhausted { exhausted += 1 }
            }
            h.clock.advance(by: 31)
        }
        #expect(limited?.code == .rateLimited && (limited?.retryAfter ?? 0) > 0, "\(String(describing: limited))")
        #expect(h.delivery.messages.count == 4, "10 wrong codes in the hour: the fifth flow gets no code")
        #expect(exhausted == 4)
        // An hour on, the number may try again; a right code clears its count.
        h.clock.advance(by: 3600)
        let s = try await h.engine.begin(authToken: try await h.start().authToken, testMode: false)
        _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
        #expect(try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: try await h.code()).next == .done)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSandboxMadeProductionStopsItsOpenFlows(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        let unbegun = try await h.start()
        let begun = try await h.engine.begin(authToken: try await h.start().authToken, testMode: true)
        try await h.engine.saveSettings(tenantID: h.tenantID, PossessionSettings(environment: .production), carrierSecret: nil)
        #expect(await refusal { try await h.engine.begin(authToken: unbegun.authToken, testMode: true) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.carrierEvidence(deviceToken: begun.deviceToken, CarrierEvidence(provider: "test")) }?.code == .unauthorized)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSlowOperatorFallsToTheCodeAtTheDeadline(_ kind: TestDatabaseKind) async throws {
        let carrier = ScriptedCarrier()
        let h = try await PossessionHarness(kind, carriers: [carrier], carrierDeadline: 0.2)
        defer { h.close() }
        try await h.useCarrier()
        let s = try await h.engine.begin(authToken: try await h.start().authToken, testMode: false)
        let state = try #require(s.progress.carrierCheck?.url?.absoluteString.components(separatedBy: "state=").last)
        // The operator answers only once the test lets it: however slow the machine, the
        // deadline (the engine's clock's) is what ends the check.
        let operatorAnswers = Latch()
        carrier.hold = operatorAnswers
        let evidence = Task { try await h.engine.carrierEvidence(deviceToken: s.deviceToken, CarrierEvidence(provider: "camara", code: "c", state: state)) }
        _ = await carrier.entered.wait()
        await h.clock.waitForSleepers()
        h.clock.advance(by: 0.2)
        #expect(try await evidence.value.next == .otpStart)
        operatorAnswers.signal()
    }

    @Test(arguments: TestDatabaseKind.available)
    func endedFlowsAreDeletedADayAfterExpiry(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let old = try await h.start()
        h.clock.advance(by: 15 * 60 + 24 * 3600 - 1)
        let recent = try await h.start()
        #expect(try await h.engine.sweep() == 0)
        h.clock.advance(by: 1)
        #expect(try await h.engine.sweep() == 1)
        #expect(await refusal { try await h.engine.validate(caller: h.caller, correlationId: old.correlationId) }?.code == .noSuchFlow)
        _ = try await h.engine.validate(caller: h.caller, correlationId: recent.correlationId)
    }
}
