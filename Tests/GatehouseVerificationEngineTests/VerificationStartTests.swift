import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

@Suite struct VerificationStartTests {
    static let mobile = "447400123456"

    func start(_ harness: EngineHarness, _ caller: VerificationCaller, _ destination: String = mobile, method: String = "sms")
        async throws -> VerificationRecord
    {
        try await harness.engine.start(StartRequest(destination: destination, deliveryMethod: method), caller: caller)
    }

    @Test(arguments: TestDatabaseKind.available)
    func validationReportsEveryField(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let request = StartRequest(
            destination: "+371.12345678", deliveryMethod: "fax", languages: ["zh-Hans-CN"], appHash: "short",
            custom: String(repeating: "x", count: 4097))
        await #expect(throws: VerificationFailure([.destinationInvalid, .deliveryMethodUnknown, .languagesInvalid, .appHashInvalid, .customTooLong])) {
            try await harness.engine.start(request, caller: caller)
        }
        await #expect(throws: VerificationFailure([.destinationBlank, .deliveryMethodBlank])) {
            try await harness.engine.start(StartRequest(destination: "  ", deliveryMethod: ""), caller: caller)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func cooldownAnswers429WithRetryAfter(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.cooldownSeconds = 30 }
        _ = try await start(harness, caller)
        harness.clock.advance(by: 10)
        await #expect(throws: VerificationFailure(.destinationInCooldown, retryAfter: 20)) { try await start(harness, caller) }
        harness.clock.advance(by: 20)
        #expect(try await start(harness, caller).status(at: harness.clock.now) == .pending)
    }

    @Test(arguments: TestDatabaseKind.available)
    func volumeLimitsAndBalance(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        harness.clock.set(Date(timeIntervalSince1970: 1_767_268_800))  // 2026-01-01T12:00:00Z
        let caller = try await harness.caller { $0.dailyLimit = .some(2); $0.cooldownSeconds = 0 }
        _ = try await start(harness, caller, "447400123456")
        _ = try await start(harness, caller, "447400123457")
        await #expect(throws: VerificationFailure(.volumeLimitReached, retryAfter: 43_200)) { try await start(harness, caller, "447400123458") }
        harness.clock.advance(by: 43_200)
        _ = try await start(harness, caller, "447400123458")

        let poor = try await harness.caller { $0.smsFee = "20.00" }
        await #expect(throws: VerificationFailure(.balanceInsufficient)) { try await start(harness, poor) }
    }

    /// A public start refused for its balance takes no slot of the public per-account limit;
    /// the limit is decided and counted in one step once the start may go ahead.
    @Test(arguments: TestDatabaseKind.available)
    func aRefusedPublicStartTakesNoPublicSlot(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.publicPerAccount = 2
        let harness = try await EngineHarness(kind, settings: settings)
        defer { harness.close() }
        let poor = try await harness.caller(.public) { $0.smsFee = "20.00"; $0.cooldownSeconds = 0 }
        for number in ["447400123401", "447400123402", "447400123403"] {
            await #expect(throws: VerificationFailure(.balanceInsufficient)) { try await start(harness, poor, number) }
        }
        let caller = try await harness.caller(.public) { $0.cooldownSeconds = 0 }
        _ = try await start(harness, caller, "447400123404")
        _ = try await start(harness, caller, "447400123405")
        await #expect(throws: VerificationFailure.self) { try await start(harness, caller, "447400123406") }
        do {
            _ = try await start(harness, caller, "447400123407")
        } catch let failure as VerificationFailure {
            #expect(failure.codes == [.rateLimitPublicPerAccount] && (failure.retryAfter ?? 0) > 0)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func denialsAndUnreachableDestinations(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let paused = try await harness.caller { $0.paused = true }
        #expect(try await start(harness, paused).outcome(at: harness.clock.now) == .applicationPaused)
        let noGB = try await harness.caller { $0.disabledCountries = ["gb"] }
        #expect(try await start(harness, noGB).outcome(at: harness.clock.now) == .destinationCountryDisabled)
        let publicCaller = try await harness.caller(.public)
        let denied = try await start(harness, publicCaller)
        #expect(denied.status(at: harness.clock.now) == .denied)
        #expect(denied.outcome(at: harness.clock.now) == .deniedMissingCallbackURL)

        let plain = try await harness.caller()
        let landline = try await start(harness, plain, "442079460018")
        #expect(landline.status(at: harness.clock.now) == .failed)
        #expect(landline.outcome(at: harness.clock.now) == .destinationNotSupportedForChannel)
        #expect(try await start(harness, plain, "442079460018", method: "callout").status(at: harness.clock.now) == .pending)
        try await harness.dispatcher.drain()
        #expect(harness.delivery.messages.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func deniedStartSupersedesNothing(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let app = try await harness.caller(.basic) { $0.callbackURL = .some("https://backend.example/cb/didww"); $0.cooldownSeconds = 0 }
        let live = try await start(harness, app)
        harness.callbacks.answer(200, #"{"action":"deny"}"#)
        let denied = try await start(harness, app)
        #expect(denied.outcome(at: harness.clock.now) == .deniedByCallback)
        #expect(try await harness.engine.verification(.id(live.id), caller: app).status(at: harness.clock.now) == .pending)
        // Seed 001: by number means the live verification while there is one.
        #expect(try await harness.engine.verification(.number(Self.mobile), caller: app).id == live.id)
        // Once it has expired, the newest (the denied one) answers.
        harness.clock.advance(by: 301)
        #expect(try await harness.engine.verification(.number(Self.mobile), caller: app).id == denied.id)
    }

    @Test(arguments: TestDatabaseKind.available)
    func callbackIsSignedAndItsAnswerDecides(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let (app, secret) = try await harness.engine.createApplication(
            tenantID: harness.tenantID,
            settings: { var s = OTPApplicationSettings(); s.callbackURL = .some("https://backend.example/cb/didww?x=1"); s.cooldownSeconds = 0; return s }())
        let caller = VerificationCaller(application: app, mode: .public)
        let cases: [(Int, String, VerificationOutcome?)] = [
            (200, #"{"action":"allow"}"#, nil),
            (200, #"{"action":"deny"}"#, .deniedByCallback),
            (500, #"{"action":"allow"}"#, .deniedInvalidCallbackResponse),
            (200, "not json", .deniedInvalidCallbackResponse),
            (200, #"{"action":"maybe"}"#, .deniedInvalidCallbackResponse),
            (200, "", .deniedInvalidCallbackResponse),
            (200, #"{"action":"allow","pad":""# + String(repeating: "x", count: 8200) + #""}"#, .deniedInvalidCallbackResponse),
        ]
        for (status, body, outcome) in cases {
            harness.callbacks.answer(status, body)
            let record = try await harness.engine.start(
                StartRequest(destination: Self.mobile, deliveryMethod: "sms", custom: "flow-b"), caller: caller)
            #expect(record.outcome(at: harness.clock.now) == outcome, "\(status) \(body.prefix(30))")
        }
        harness.callbacks.fail(OutboundError(.timedOut))
        #expect(try await start(harness, caller).outcome(at: harness.clock.now) == .deniedInvalidCallbackResponse)

        let request = try #require(harness.callbacks.received.first)
        let body = try #require(request.httpBody)
        let json = try JSONSerialization.jsonObject(with: body) as! [String: Any]
        #expect(json["event"] as? String == "verification_request")
        let data = json["data"] as! [String: String]
        #expect(data["destination"] == Self.mobile && data["delivery_method"] == "sms" && data["custom"] == "flow-b")
        let header = try #require(request.value(forHTTPHeaderField: "Authorization"))
        let parsed = try #require(RequestSigner.parseApplicationHeader(header))
        #expect(parsed.key == app.appKey)
        let timestamp = try #require(request.value(forHTTPHeaderField: "x-timestamp"))
        #expect(RequestSigner.verify(
            signature: parsed.signature!, key: RequestSigner.key(fromSecret: secret)!, method: "POST", body: Array(body),
            contentType: "application/json", timestamp: timestamp, path: "/cb/didww", now: harness.clock.now))
    }

    @Test func signingPathOfRegisteredURLs() {
        #expect(VerificationEngine.signingPath(of: "https://example.com/cb/didww") == "/cb/didww")
        #expect(VerificationEngine.signingPath(of: "https://example.com") == "")
        #expect(VerificationEngine.signingPath(of: "https://example.com?x=1/2") == "")
        #expect(VerificationEngine.signingPath(of: "https://example.com/") == "/")
        #expect(VerificationEngine.signingPath(of: "https://example.com:8443/a/b?c=d#e") == "/a/b")
    }
}
