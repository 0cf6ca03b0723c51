import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehousePossessionEngine

/// The device's steps: codes from the verification engine with their two minutes and tries,
/// the carrier check decided once, test mode by the number's digits, and cancel.
struct DeviceStepTests {
    func refusal(_ body: () async throws -> some Any) async -> PossessionError? {
        do { _ = try await body() } catch let error as PossessionError { return error } catch { Issue.record(error) }
        return nil
    }

    func session(_ h: PossessionHarness, _ input: StartInput = StartInput(flowType: "mobile", phoneNumber: PossessionHarness.number), testMode: Bool = false)
        async throws -> DeviceSession
    {
        try await h.engine.begin(authToken: try await h.start(input).authToken, testMode: testMode)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aRealCodeIsSentCheckedAndLivesTwoMinutes(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let s = try await session(h, StartInput(flowType: "mobile", phoneNumber: PossessionHarness.number, smsMessage: "Code: #####", allowOTPRetry: true))
        let sent = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
        #expect(sent.next == .otpFinish && sent.otpLength == 5)
        let code = try await h.code()
        #expect(code.count == 5 && h.delivery.messages.last?.to == "14165550172")
        #expect(h.delivery.messages.last?.body == "Code: \(code)", "Start's smsMessage is the text sent")
        #expect(await refusal { try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: "1x") }?.code == .otpInvalid)
        let done = try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: code)
        #expect(done == DeviceProgress(next: .done, authId: s.authId))
        #expect(await refusal { try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: code) }?.code == .stepNotAllowed)
        let validated = try await h.engine.validate(caller: h.caller, correlationId: s.authId)
        #expect(validated.success && validated.phoneNumber == PossessionHarness.number && validated.next == "v3-challenge")

        let late = try await session(h, StartInput(flowType: "mobile", phoneNumber: "+14165550173"))
        _ = try await h.engine.otpStart(deviceToken: late.deviceToken, phoneNumber: nil)
        let lateCode = try await h.code()
        h.clock.advance(by: 120)
        #expect(await refusal { try await h.engine.otpFinish(deviceToken: late.deviceToken, otp: lateCode) }?.code == .otpExpired)
        #expect(try await h.engine.validate(caller: h.caller, correlationId: late.authId) == .init(success: false, challengeMissing: false, phoneNumber: nil, next: "done"))
    }

    /// A prefix held back by the SMS-pumping guard is Prove's rate limit, and sends nothing.
    @Test(arguments: TestDatabaseKind.available)
    func aBlockedPrefixIsARateLimit(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let first = try await session(h)
        _ = try await h.engine.otpStart(deviceToken: first.deviceToken, phoneNumber: nil)
        _ = try await h.code()
        _ = try await h.verification.pinPrefixBlock(tenantID: h.tenantID, applicationID: nil, prefix: "+1416")
        let blocked = try await session(h, StartInput(flowType: "mobile", phoneNumber: "+14165550174"))
        let refusal = await refusal { try await h.engine.otpStart(deviceToken: blocked.deviceToken, phoneNumber: nil) }
        #expect(refusal?.code == .rateLimited && refusal?.retryAfter == nil)
        try await h.dispatcher.drain()
        #expect(h.delivery.messages.count == 1)
        // The flow may try again once the block is lifted.
        try await h.verification.liftPrefixBlock(tenantID: h.tenantID, applicationID: nil, prefix: "+1416")
        #expect(try await h.engine.otpStart(deviceToken: blocked.deviceToken, phoneNumber: nil).next == .otpFinish)
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentWrongCodesUseUpTheTriesExactly(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let s = try await session(h, StartInput(flowType: "mobile", phoneNumber: PossessionHarness.number, allowOTPRetry: true))
        _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
        let code = try await h.code()
        let wrong = code == "000000" ? "111111" : "000000"
        let codes = await withTaskGroup(of: PossessionError.Code?.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    do { _ = try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: wrong); return nil } catch let e as PossessionError { return e.code } catch { return nil }
                }
            }
            return await group.reduce(into: [PossessionError.Code?]()) { $0.append($1) }
        }
        #expect(codes.filter { $0 == .otpInvalid }.count == 2, "\(codes)")
        #expect(codes.filter { $0 == .otpAttemptsExhausted }.count == 1, "\(codes)")
        #expect(codes.filter { $0 == .stepNotAllowed }.count == 3, "\(codes)")
        #expect(await refusal { try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: code) }?.code == .stepNotAllowed, "the flow has failed")
    }

    @Test(arguments: TestDatabaseKind.available)
    func theNumberIsAskedForWhenStartHadNoneAndCannotBeSwapped(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let s = try await session(h, StartInput(flowType: "mobile"))
        #expect(s.progress == DeviceProgress(next: .otpStart, phoneNumberNeeded: true))
        #expect(await refusal { try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil) }?.code == .phoneNumberInvalid)
        #expect(await refusal { try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: "+1 416 555") }?.code == .phoneNumberInvalid)
        _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: "416-555-0172")
        #expect(h.delivery.messages.isEmpty)
        _ = try await h.code()

        let known = try await session(h, StartInput(flowType: "mobile", phoneNumber: "+14165550174"))
        #expect(await refusal { try await h.engine.otpStart(deviceToken: known.deviceToken, phoneNumber: "+14165550175") }?.code == .phoneNumberInvalid)
        #expect(await refusal { try await h.engine.otpStart(deviceToken: "ghpd_nope.x", phoneNumber: nil) }?.code == .unauthorized)
    }

    @Test(arguments: TestDatabaseKind.available)
    func testModeDecidesByTheNumbersLastDigits(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        for (number, next) in [("+12025550142", DeviceProgress.Next.done), ("+12025550143", .otpStart), ("+12025550100", .otpStart), ("+12025550199", .otpStart)] {
            let s = try await session(h, StartInput(flowType: "mobile", phoneNumber: number), testMode: true)
            #expect(s.progress.carrierCheck?.provider == "test")
            let decided = try await h.engine.carrierEvidence(deviceToken: s.deviceToken, CarrierEvidence(provider: "test"))
            #expect(decided.next == next, "\(number)")
            if next == .otpStart {
                _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
                #expect(try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: "1234").next == .done)
            }
        }
        #expect(h.delivery.messages.isEmpty, "test mode sends nothing")
        try await h.dispatcher.drain()
        #expect(h.delivery.messages.isEmpty)
    }

    @Test(arguments: TestDatabaseKind.available)
    func carrierEvidenceIsDecidedOnceAndFailuresFallToTheCode(_ kind: TestDatabaseKind) async throws {
        let carrier = ScriptedCarrier()
        let h = try await PossessionHarness(kind, carriers: [carrier])
        defer { h.close() }
        let settings = CamaraSettings(
            authorizationEndpoint: URL(string: "https://operator.example/authorize")!, tokenEndpoint: URL(string: "https://operator.example/token")!,
            apiBase: URL(string: "https://operator.example")!, clientId: "gh", redirectUri: URL(string: "https://gatehouse.example/back")!)
        try await h.engine.saveSettings(tenantID: h.tenantID, PossessionSettings(carrier: settings), carrierSecret: "operator-secret")
        let s = try await session(h)
        let check = try #require(s.progress.carrierCheck)
        let state = try #require(check.url?.absoluteString.components(separatedBy: "state=").last)
        #expect(check.provider == "camara" && check.redirectUri == settings.redirectUri)
        carrier.delay = 50_000_000
        let answers = await withTaskGroup(of: DeviceProgress.Next?.self) { group in
            for _ in 0..<4 {
                group.addTask { try? await h.engine.carrierEvidence(deviceToken: s.deviceToken, CarrierEvidence(provider: "camara", code: "c", state: state)).next }
            }
            return await group.reduce(into: [DeviceProgress.Next?]()) { $0.append($1) }
        }
        #expect(answers.compactMap { $0 } == [.done], "one decision: \(answers)")
        #expect(carrier.calls == 1, "duplicates call no operator")

        carrier.delay = 0
        for (result, next) in [(CarrierResult.notVerified, DeviceProgress.Next.otpStart), (.unavailable("operator down"), .otpStart), (.invalidNumber, .failed)] {
            carrier.result = result
            let other = try await session(h)
            let otherState = try #require(other.progress.carrierCheck?.url?.absoluteString.components(separatedBy: "state=").last)
            #expect(try await h.engine.carrierEvidence(deviceToken: other.deviceToken, CarrierEvidence(provider: "camara", code: "c", state: otherState)).next == next)
        }
        // A state that is not the flow's, or the device's own error, is no proof: the code follows, and the operator is not asked.
        let calls = carrier.calls
        let wrongState = try await session(h)
        #expect(try await h.engine.carrierEvidence(deviceToken: wrongState.deviceToken, CarrierEvidence(provider: "camara", code: "c", state: "forged")).next == .otpStart)
        let noCellular = try await session(h)
        #expect(try await h.engine.carrierEvidence(deviceToken: noCellular.deviceToken, CarrierEvidence(provider: "camara", error: "no_cellular")).next == .otpStart)
        #expect(carrier.calls == calls)
    }

    @Test(arguments: TestDatabaseKind.available)
    func cancelEndsTheFlowOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let s = try await session(h)
        #expect(try await h.engine.cancel(deviceToken: s.deviceToken).next == .failed)
        #expect(try await h.engine.cancel(deviceToken: s.deviceToken).next == .failed)
        #expect(await refusal { try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil) }?.code == .stepNotAllowed)
        #expect(try await h.engine.validate(caller: h.caller, correlationId: s.authId).next == "done")
    }
}
