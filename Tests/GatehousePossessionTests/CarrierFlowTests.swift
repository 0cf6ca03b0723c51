import Foundation
import GatehousePossession
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The flow through the carrier check, and what every device call looks like.
@Suite struct CarrierFlowTests {
    @Test func aCarrierSuccessEndsInAuthFinishAndTheAsyncTwinReturnsTheAuthId() async throws {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.done)]])
        let finish = RecordingFinish()
        let check = RecordingCarrierCheck(.redirected(code: "c1", state: "s1", error: nil))
        let authId = try await makeAuth(gatehouse, finish: finish, check: check).authenticate(authToken())
        #expect(authId == "auth-1")
        #expect(finish.authIds == ["auth-1"])
        #expect(gatehouse.operations == ["begin", "carrier-check"])
        #expect(
            check.challenges == [
                CarrierCheckChallenge(
                    provider: "camara", url: URL(string: "https://operator.test/authorize?state=s1"), redirectUri: URL(string: redirectUri))
            ])
        #expect(gatehouse.calls("carrier-check").first?.body == json(#"{"provider":"camara","code":"c1","state":"s1"}"#))
    }

    @Test func theCallbackFormCallsOnlyAuthFinishWhenPossessionIsProved() async {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.done)]])
        let finish = RecordingFinish()
        let errors = await completions(makeAuth(gatehouse, finish: finish, check: ScriptedCarrierCheck(.redirected(code: "c", state: "s", error: nil))))
        #expect(errors.isEmpty)
        #expect(finish.authIds == ["auth-1"])
    }

    @Test func aDoneStepWithoutAuthIdGivesTheSessionsOne() async throws {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara, authId: "auth-S")], "carrier-check": [Wire.step(#"{"next":"done"}"#)]])
        let finish = RecordingFinish()
        #expect(try await makeAuth(gatehouse, finish: finish).authenticate(authToken()) == "auth-S")
        #expect(finish.authIds == ["auth-S"])
    }

    @Test(arguments: [
        (CarrierCheckOutcome.noCellular, #"{"provider":"camara","error":"no_cellular"}"#),
        (.unavailable(reason: "vpn"), #"{"provider":"camara","error":"vpn"}"#),
        (.redirectError, #"{"provider":"camara","error":"redirect_error"}"#),
        (.redirected(code: nil, state: "s1", error: "login_required"), #"{"provider":"camara","state":"s1","error":"login_required"}"#),
    ])
    func aFailedCheckIsPostedAsEvidence(outcome: CarrierCheckOutcome, body: String) async {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.failed)]])
        #expect(await failure(makeAuth(gatehouse, check: ScriptedCarrierCheck(outcome))) == .flowFailed)
        #expect(gatehouse.calls("carrier-check").map(\.body) == [json(body)])
    }

    @Test func everyCallIsAJSONPostUnderTheIssuerWithTheFlowsBearer() async throws {
        let token = authToken()
        let gatehouse = FakeGatehouse([
            "begin": [Wire.session(Wire.camara, deviceToken: "dev-7")], "carrier-check": [Wire.step(Wire.otpStart(phoneNumberNeeded: false))],
            "otp/start": [Wire.step(Wire.otpFinish)], "otp/finish": [Wire.step(Wire.done)],
        ])
        let auth = makeAuth(gatehouse, start: ScriptedOtpStart(.consent), otp: ScriptedOtpFinish(.otp("1234")))
        _ = try await auth.authenticate(token)
        let calls = gatehouse.calls
        #expect(calls.map(\.operation) == ["begin", "carrier-check", "otp/start", "otp/finish"])
        #expect(calls.map(\.bearer) == [token, "dev-7", "dev-7", "dev-7"])
        for call in calls {
            #expect(call.request.url?.absoluteString == "http://127.0.0.1:8080/api/possession/v1/\(call.operation)")
            #expect(call.request.httpMethod == "POST")
            #expect(call.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(call.request.value(forHTTPHeaderField: "Accept") == "application/json")
        }
        #expect(calls[0].body == json(#"{"testMode":false,"sdkVersion":"6.4.0"}"#))
    }

    @Test func withBaseURLOverridesTheIssuer() async throws {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.done)]])
        let auth = PossessionAuth.builder(authFinish: RecordingFinish()).withTransport(gatehouse)
            .withCarrierCheck(ScriptedCarrierCheck(.noCellular)).withBaseURL(URL(string: "https://gatehouse.example/")!).build()
        _ = try await auth.authenticate(authToken(iss: nil))
        #expect(gatehouse.calls.map { $0.request.url?.absoluteString } == [
            "https://gatehouse.example/api/possession/v1/begin", "https://gatehouse.example/api/possession/v1/carrier-check",
        ])
    }

    @Test func aFailedStepEndsTheFlowWithoutAuthFinish() async {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.failed)]])
        let finish = RecordingFinish()
        #expect(await completions(makeAuth(gatehouse, finish: finish)) == [.flowFailed])
        #expect(finish.authIds.isEmpty)
        #expect(gatehouse.operations == ["begin", "carrier-check"])
    }

    @Test func aServerThatNeverMovesOnEndsTheFlow() async {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.camara)]])
        #expect(await failure(makeAuth(gatehouse)) == .flowFailed)
        #expect(gatehouse.calls("carrier-check").count == 16)
    }

    @Test func aCarrierCheckStepWithoutACheckIsAnUnexpectedAnswer() async {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(#"{"next":"carrier_check"}"#)]])
        guard case .unexpectedResponse = await failure(makeAuth(gatehouse)) else {
            Issue.record("not .unexpectedResponse")
            return
        }
        #expect(gatehouse.operations == ["begin"])
    }

    @Test func theLoggerNeverSeesTokensOrCodes() async throws {
        let collected = LineLog()
        let gatehouse = FakeGatehouse([
            "begin": [Wire.session(Wire.camara, deviceToken: "dev-secret")], "carrier-check": [Wire.step(Wire.otpStart(phoneNumberNeeded: true))],
            "otp/start": [Wire.step(Wire.otpFinish)], "otp/finish": [Wire.step(Wire.done)],
        ])
        let token = authToken()
        let auth = PossessionAuth.builder(authFinish: RecordingFinish())
            .withOtpFallback(otpStart: ScriptedOtpStart(.number("+12025550123")), otpFinish: ScriptedOtpFinish(.otp("987654")))
            .withTransport(gatehouse).withCarrierCheck(ScriptedCarrierCheck(.redirected(code: "opcode", state: "st", error: nil)))
            .withLogger { collected.append($0) }.build()
        _ = try await auth.authenticate(token)
        let text = collected.all.joined(separator: "\n")
        #expect(!collected.all.isEmpty)
        for secret in [token, "dev-secret", "+12025550123", "987654", "opcode"] { #expect(!text.contains(secret)) }
    }
}

final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
