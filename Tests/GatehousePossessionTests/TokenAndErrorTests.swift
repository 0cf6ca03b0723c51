import Foundation
import GatehousePossession
import Testing

/// What the SDK decides from the authToken before any request, test mode, and Gatehouse's refusals.
@Suite struct TokenAndErrorTests {
    static var flow: FakeGatehouse {
        FakeGatehouse(["begin": [Wire.session(Wire.sandboxCheck, testMode: true)], "carrier-check": [Wire.step(Wire.done)]])
    }

    @Test func testModeBeginsInTestModeAndPostsTheSandboxEvidence() async throws {
        let gatehouse = Self.flow
        let check = RecordingCarrierCheck(.noCellular)
        let auth = makeAuth(gatehouse, check: check, testMode: true)
        #expect(auth.isTestMode)
        #expect(try await auth.authenticate(authToken(env: "sandbox")) == "auth-1")
        #expect(gatehouse.calls("begin").map(\.body) == [json(#"{"testMode":true,"sdkVersion":"6.4.0"}"#)])
        #expect(gatehouse.calls("carrier-check").map(\.body) == [json(#"{"provider":"test"}"#)])
        #expect(check.challenges.isEmpty)
    }

    @Test(arguments: ["production", nil] as [String?])
    func testModeWithATokenThatIsNotASandboxsIsRefusedWithoutARequest(env: String?) async {
        let gatehouse = Self.flow
        let auth = makeAuth(gatehouse, testMode: true)
        #expect(await failure(auth, authToken(env: env)) == .testModeRefused)
        #expect(await completions(auth, authToken(env: env)) == [.testModeRefused])
        #expect(gatehouse.calls.isEmpty)
    }

    @Test func aProductionTokenWithoutTestModeBegins() async throws {
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.done)]])
        _ = try await makeAuth(gatehouse).authenticate(authToken(env: "production"))
        #expect(gatehouse.calls("begin").map(\.body) == [json(#"{"testMode":false,"sdkVersion":"6.4.0"}"#)])
    }

    @Test(arguments: [
        "", "abc", "a.b", "a.b.c.d", "..", "\(base64URL("{}")).\(base64URL(#"{"iss":"http://127.0.0.1:8080"}"#)).",
        "eyJhbGciOiJIUzI1NiJ9.!!!.c2ln", "eyJhbGciOiJIUzI1NiJ9.\(base64URL("not json")).c2ln",
        "eyJhbGciOiJIUzI1NiJ9.\(base64URL(#"["iss"]"#)).c2ln", "eyJhbGciOiJIUzI1NiJ9.\(base64URL(#"{"iss":42}"#)).c2ln",
        authToken(iss: nil), authToken(iss: "gatehouse"), authToken(iss: "ftp://127.0.0.1/"),
    ])
    func aGarbledTokenIsInvalidWithoutARequest(token: String) async {
        let gatehouse = Self.flow
        #expect(await failure(makeAuth(gatehouse), token) == .authTokenInvalid)
        #expect(gatehouse.calls.isEmpty)
    }

    @Test func aPaddedPayloadIsRead() async throws {
        let parts = authToken().split(separator: ".").map(String.init)
        let padded = parts[1] + String(repeating: "=", count: (4 - parts[1].count % 4) % 4)
        let gatehouse = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.done)]])
        _ = try await makeAuth(gatehouse).authenticate([parts[0], padded, parts[2]].joined(separator: "."))
        #expect(gatehouse.operations == ["begin", "carrier-check"])
    }

    @Test(arguments: [
        (403, 1004, PossessionAuthError.flowExpired), (401, 1005, .authTokenInvalid), (403, 1010, .testModeRefused),
        (403, 1003, .stepNotAllowed), (404, 1011, .server(code: 1011, message: "refused")), (503, 1500, .server(code: 1500, message: "refused")),
    ])
    func refusalsOfBeginAreMapped(status: Int, code: Int, expected: PossessionAuthError) async {
        let gatehouse = FakeGatehouse(["begin": [Wire.error(status, code)]])
        #expect(await completions(makeAuth(gatehouse)) == [expected])
        #expect(gatehouse.operations == ["begin"])
    }

    @Test func refusalsLaterInTheFlowAreMappedToo() async {
        let expired = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.error(403, 1004, "flow expired")]])
        #expect(await failure(makeAuth(expired)) == .flowExpired)
        let replayed = FakeGatehouse(["begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.error(401, 1005, "unauthorized")]])
        #expect(await failure(makeAuth(replayed)) == .authTokenInvalid)
        #expect(!expired.operations.contains("cancel") && !replayed.operations.contains("cancel"))
    }

    @Test func anAnswerWithoutAnErrorBodyKeepsItsStatus() async {
        #expect(await failure(makeAuth(FakeGatehouse(["begin": [.answer(502, "Bad gateway")]]))) == .server(code: 502, message: "HTTP 502"))
        // A redirect is an answer, never followed: the bearer stays with Gatehouse.
        #expect(await failure(makeAuth(FakeGatehouse(["begin": [.answer(302, "")]]))) == .server(code: 302, message: "HTTP 302"))
    }

    @Test func aTransportFailureIsANetworkError() async {
        guard case .network = await failure(makeAuth(FakeGatehouse(["begin": [.failure(.notConnectedToInternet)]]))) else {
            Issue.record("not .network")
            return
        }
    }

    @Test func anAnswerOfTheWrongShapeIsUnexpected() async {
        guard case .unexpectedResponse = await failure(makeAuth(FakeGatehouse(["begin": [.answer(200, #"{"authId":1}"#)]]))) else {
            Issue.record("not .unexpectedResponse")
            return
        }
    }

    @Test func errorsReadAsSentencesAndMatchWithoutPayload() {
        let error: PossessionAuthError? = .phoneNumberValidationError
        if case .phoneNumberValidationError = error {} else { Issue.record("no match") }
        #expect(PossessionAuthError.otpValidationError.localizedDescription == "The code is not correct.")
        #expect(PossessionAuthError.server(code: 1500, message: "busy").localizedDescription.contains("1500"))
    }
}
