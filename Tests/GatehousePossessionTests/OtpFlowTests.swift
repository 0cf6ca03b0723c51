import Foundation
import GatehousePossession
import Testing

/// The fallback to a one-time code: OtpStart, OtpFinish, their re-prompts and cancels.
@Suite struct OtpFlowTests {
    static func script(otpStart: [FakeGatehouse.Reply] = [Wire.step(Wire.otpFinish)], otpFinish: [FakeGatehouse.Reply] = [Wire.step(Wire.done)], needed: Bool = false)
        -> FakeGatehouse
    {
        FakeGatehouse([
            "begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.otpStart(phoneNumberNeeded: needed))],
            "otp/start": otpStart, "otp/finish": otpFinish, "cancel": [Wire.step(Wire.failed)],
        ])
    }

    @Test(arguments: [false, true])
    func aFailedCarrierCheckFallsToTheCode(phoneNumberNeeded: Bool) async throws {
        let gatehouse = Self.script(needed: phoneNumberNeeded)
        let start = ScriptedOtpStart(phoneNumberNeeded ? .number("+12025550123") : .consent)
        let otp = ScriptedOtpFinish(.otp("1234"))
        let finish = RecordingFinish()
        #expect(try await makeAuth(gatehouse, finish: finish, start: start, otp: otp).authenticate(authToken()) == "auth-1")
        #expect(start.calls.map(\.needed) == [phoneNumberNeeded])
        #expect(start.calls.map(\.error) == [nil])
        #expect(otp.calls == [nil])
        #expect(gatehouse.calls("carrier-check").map(\.body) == [json(#"{"provider":"camara","error":"no_cellular"}"#)])
        #expect(gatehouse.calls("otp/start").map(\.body) == [json(phoneNumberNeeded ? #"{"phoneNumber":"+12025550123"}"# : "{}")])
        #expect(gatehouse.calls("otp/finish").map(\.body) == [json(#"{"otp":"1234"}"#)])
        #expect(finish.authIds == ["auth-1"])
    }

    @Test func aRefusedNumberAsksOtpStartAgainWithTheValidationError() async throws {
        let gatehouse = Self.script(otpStart: [Wire.error(400, 1009, "phone number invalid"), Wire.step(Wire.otpFinish)], needed: true)
        let start = ScriptedOtpStart(.number("+1202555"), .number("+12025550123"))
        _ = try await makeAuth(gatehouse, start: start, otp: ScriptedOtpFinish(.otp("1234"))).authenticate(authToken())
        #expect(start.calls.map(\.needed) == [true, true])
        #expect(start.calls.map(\.error) == [nil, .phoneNumberValidationError])
        #expect(gatehouse.calls("otp/start").map(\.body) == [json(#"{"phoneNumber":"+1202555"}"#), json(#"{"phoneNumber":"+12025550123"}"#)])
    }

    @Test func aWrongCodeAsksOtpFinishAgainWithTheOtpError() async throws {
        let gatehouse = Self.script(otpFinish: [Wire.error(400, 1006, "otp invalid"), Wire.step(Wire.done)])
        let otp = ScriptedOtpFinish(.otp("1111"), .otp("1234"))
        let finish = RecordingFinish()
        _ = try await makeAuth(gatehouse, finish: finish, start: ScriptedOtpStart(.consent), otp: otp).authenticate(authToken())
        #expect(otp.calls == [nil, .otpValidationError])
        #expect(gatehouse.calls("otp/finish").map(\.body) == [json(#"{"otp":"1111"}"#), json(#"{"otp":"1234"}"#)])
        #expect(finish.authIds == ["auth-1"])
    }

    @Test(arguments: [(1008, PossessionAuthError.otpAttemptsExhausted), (1007, .otpExpired)])
    func theCodeRunningOutEndsTheFlowWithoutAuthFinish(code: Int, expected: PossessionAuthError) async {
        let gatehouse = Self.script(otpFinish: [Wire.error(400, 1006), Wire.error(403, code)])
        let finish = RecordingFinish()
        let otp = ScriptedOtpFinish(.otp("1111"), .otp("2222"))
        #expect(await completions(makeAuth(gatehouse, finish: finish, start: ScriptedOtpStart(.consent), otp: otp)) == [expected])
        #expect(otp.calls == [nil, .otpValidationError])
        #expect(finish.authIds.isEmpty)
        #expect(!gatehouse.operations.contains("cancel"))
    }

    @Test func cancellingInOtpStartPostsCancelAndSkipsAuthFinish() async {
        let gatehouse = Self.script()
        let finish = RecordingFinish()
        let otp = ScriptedOtpFinish(.otp("1234"))
        #expect(await completions(makeAuth(gatehouse, finish: finish, start: ScriptedOtpStart(.cancel), otp: otp)) == [.cancelled])
        #expect(gatehouse.operations == ["begin", "carrier-check", "cancel"])
        #expect(gatehouse.calls("cancel").map(\.bearer) == ["dev-1"])
        #expect(gatehouse.calls("cancel").map(\.body) == [json("{}")])
        #expect(otp.calls.isEmpty)
        #expect(finish.authIds.isEmpty)
    }

    @Test(arguments: [ScriptedOtpFinish.Answer.cancel, .noInput])
    func cancellingInOtpFinishPostsCancelAndSkipsAuthFinish(answer: ScriptedOtpFinish.Answer) async {
        let gatehouse = Self.script()
        let finish = RecordingFinish()
        #expect(await completions(makeAuth(gatehouse, finish: finish, start: ScriptedOtpStart(.consent), otp: ScriptedOtpFinish(answer))) == [.cancelled])
        #expect(gatehouse.operations == ["begin", "carrier-check", "otp/start", "cancel"])
        #expect(finish.authIds.isEmpty)
    }

    @Test func withoutAnOtpFallbackTheFlowIsCancelled() async {
        let gatehouse = Self.script()
        #expect(await completions(makeAuth(gatehouse)) == [.otpFallbackNotConfigured])
        #expect(gatehouse.operations == ["begin", "carrier-check", "cancel"])
    }

    @Test func aCallbackActsOnce() async throws {
        let gatehouse = Self.script(needed: true)
        let finish = RecordingFinish()
        let auth = PossessionAuth.builder(authFinish: finish)
            .withOtpFallback(otpStart: EagerOtpStart(), otpFinish: ScriptedOtpFinish(.otp("1234")))
            .withTransport(gatehouse).withCarrierCheck(ScriptedCarrierCheck(.noCellular)).build()
        #expect(try await auth.authenticate(authToken()) == "auth-1")
        #expect(gatehouse.calls("otp/start").map(\.body) == [json(#"{"phoneNumber":"+12025550123"}"#)])
        #expect(!gatehouse.operations.contains("cancel"))
    }

    @Test func cancellingTheTaskWhileOtpFinishWaitsEndsTheFlow() async {
        let gatehouse = Self.script()
        let otp = ScriptedOtpFinish(.wait)
        let finish = RecordingFinish()
        let auth = makeAuth(gatehouse, finish: finish, start: ScriptedOtpStart(.consent), otp: otp)
        let task = Task { try await auth.authenticate(authToken()) }
        #expect(await otp.called.wait(timeout: .seconds(60)))
        task.cancel()
        await #expect(throws: PossessionAuthError.cancelled) { try await task.value }
        #expect(gatehouse.operations.last == "cancel")
        #expect(finish.authIds.isEmpty)
    }

    @Test func cancellingTheReturnedTaskCallsTheCompletionWithCancelled() async {
        let gatehouse = Self.script()
        let start = ScriptedOtpStart(.wait)
        let received = Received()
        let task = makeAuth(gatehouse, start: start, otp: ScriptedOtpFinish(.otp("1234"))).authenticate(authToken()) { received.append($0) }
        #expect(await start.called.wait(timeout: .seconds(60)))
        task.cancel()
        await task.value
        #expect(received.all == [.cancelled])
        #expect(gatehouse.operations == ["begin", "carrier-check", "cancel"])
    }

    @MainActor @Test func stepsRunOffTheMainThread() async throws {
        let gatehouse = Self.script()
        let start = ThreadRecordingOtpStart()
        let auth = PossessionAuth.builder(authFinish: RecordingFinish())
            .withOtpFallback(otpStart: start, otpFinish: ScriptedOtpFinish(.otp("1234")))
            .withTransport(gatehouse).withCarrierCheck(ScriptedCarrierCheck(.noCellular)).build()
        _ = try await auth.authenticate(authToken())
        #expect(start.onMain == [false])
    }
}

/// Answers twice and then cancels, all at once: only the first answer may count.
final class EagerOtpStart: OtpStartStep {
    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback) {
        callback.onSuccess(input: OtpStartInput(phoneNumber: "+12025550123"))
        callback.onSuccess(input: OtpStartInput(phoneNumber: "+12025550199"))
        callback.onError()
    }
}

/// Records whether it was called on the main thread.
final class ThreadRecordingOtpStart: OtpStartStep, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Bool] = []
    var onMain: [Bool] { lock.withLock { seen } }

    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback) {
        lock.withLock { seen.append(Thread.isMainThread) }
        callback.onSuccess(input: nil)
    }
}
