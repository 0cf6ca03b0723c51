import Foundation
import GatehouseProveClient
import GatehouseClientCore
import GatehousePossession
import GatehousePossessionSample
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Whole possession flows, SDK → sample backend → Gatehouse, on the development tenant (a
/// sandbox: test mode, numbers ending even pass the carrier check, odd ones fall to the fixed
/// code `1234`) and on a production one (real codes through the outbox).
@Suite(.serialized) struct PossessionFlowTests {
    static let carrierPasses = "+12025550142"  // Ada Lovelace, dob 1985-12-10, SSN …6789
    static let carrierFails = "+12025550143"  // Grace Hopper

    @Test(arguments: TestDatabaseKind.available)
    func carrierCheckSuccessGoesStraightToAuthFinishAndPrefill(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let token = try await f.app.initialize(.init(phoneNumber: Self.carrierPasses, flowType: "mobile", ssn: "6789"))
            let steps = ScriptedSteps()
            let authId = try await f.sdk(testMode: true, steps: steps).authenticate(token)
            #expect(steps.authFinished == [authId])
            #expect(steps.starts.isEmpty && steps.finishes.isEmpty, "no OTP step runs after a carrier success")
            // The sample backend hands the pre-fill only to the session that began the flow.
            await #expect(throws: (any Error).self) { try await f.app.verify(.init(authId: UUID().uuidString.lowercased())) }
            let verified = try await f.app.verify(.init(authId: authId))
            #expect(verified["success"] as? Bool == true)
            #expect(verified["firstName"] as? String == "Ada")
            #expect(verified["lastName"] as? String == "Lovelace")
            #expect(verified["ssn"] as? String == "6789", "only the last four of an SSN come back")
            let finished = try await f.app.finish(.init(firstName: "Ada", lastName: "Lovelace"))
            #expect(finished["success"] as? Bool == true)
            #expect(finished["next"] as? [String: String] == ["done": "done"])
            #expect(finished["changeDetected"] as? Bool == false)
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func carrierFailureFallsToTheCodeWithTheNumberKnown(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let token = try await f.app.initialize(.init(phoneNumber: Self.carrierFails, flowType: "mobile", dob: "1976-12-09"))
            let steps = ScriptedSteps(start: [.confirm], finish: [.code { "1234" }])
            let authId = try await f.sdk(testMode: true, steps: steps).authenticate(token)
            #expect(steps.starts.map(\.needed) == [false])
            #expect(steps.finishes == [nil])
            #expect(steps.authFinished == [authId])
            let verified = try await f.app.verify(.init(authId: authId))
            #expect(verified["firstName"] as? String == "Grace")
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aNumberNeededIsAskedForAnInvalidOneReprompted(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            try await f.makeProduction()
            let token = try await f.app.initialize(.init(phoneNumber: nil, flowType: "mobile"))
            let number = PossessionFixture.productionNumber
            let steps = ScriptedSteps(start: [.number("+1 555"), .number(number)], finish: [.code { try await f.code(for: number) }])
            let authId = try await f.sdk(testMode: false, steps: steps).authenticate(token)
            #expect(steps.starts.map(\.needed) == [true, true])
            #expect(steps.starts.map(\.error) == [nil, .phoneNumberValidationError])
            #expect(steps.authFinished == [authId])
            let verified = try await f.app.verify(.init(authId: authId, dob: "1981-04-09"))
            #expect(verified["firstName"] as? String == "Mary")
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aWrongCodeThenTheRightOneWithRetriesAllowed(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let token = try await f.app.initialize(.init(phoneNumber: Self.carrierFails, flowType: "mobile", allowOTPRetry: true))
            let steps = ScriptedSteps(start: [.confirm], finish: [.code { "0000" }, .code { "1234" }])
            let authId = try await f.sdk(testMode: true, steps: steps).authenticate(token)
            #expect(steps.finishes == [nil, .otpValidationError])
            #expect(steps.authFinished == [authId])
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func wrongCodesPastTheRetriesEndTheFlowWithoutAuthFinish(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            try await f.makeProduction()
            let number = PossessionFixture.productionNumber
            let token = try await f.app.initialize(.init(phoneNumber: number, flowType: "mobile", allowOTPRetry: true))
            let steps = ScriptedSteps(start: [.confirm], finish: Array(repeating: .code { "000000" }, count: 4))
            await #expect(throws: PossessionAuthError.otpAttemptsExhausted) { try await f.sdk(testMode: false, steps: steps).authenticate(token) }
            #expect(steps.finishes == [nil, .otpValidationError, .otpValidationError])
            #expect(steps.authFinished.isEmpty)
            let verified = try await f.app.verify(.init(authId: nil))
            #expect(verified["success"] as? Bool == false)
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func withoutRetriesOneWrongCodeEndsTheFlow(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let token = try await f.app.initialize(.init(phoneNumber: Self.carrierFails, flowType: "mobile"))
            let steps = ScriptedSteps(start: [.confirm], finish: [.code { "9999" }, .code { "1234" }])
            await #expect(throws: PossessionAuthError.otpAttemptsExhausted) { try await f.sdk(testMode: true, steps: steps).authenticate(token) }
            #expect(steps.finishes == [nil])
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aCodeExpiresAfterTwoMinutesAndAFlowAfterFifteen(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            try await f.makeProduction()
            let number = PossessionFixture.productionNumber
            let token = try await f.app.initialize(.init(phoneNumber: number, flowType: "mobile", allowOTPRetry: true))
            let clock = f.clock
            let steps = ScriptedSteps(start: [.confirm], finish: [.code {
                let code = try await f.code(for: number)
                clock.advance(by: 121)
                return code
            }])
            await #expect(throws: PossessionAuthError.otpExpired) { try await f.sdk(testMode: false, steps: steps).authenticate(token) }
            #expect(steps.authFinished.isEmpty)

            let late = try await f.app.initialize(.init(phoneNumber: number, flowType: "mobile"))
            clock.advance(by: 15 * 60)
            await #expect(throws: PossessionAuthError.flowExpired) { try await f.sdk(testMode: false, steps: ScriptedSteps()).authenticate(late) }
            let failure = await #expect(throws: ProveClient.Failure.self) { _ = try await f.backend.client.validate(correlationId: try Self.flowID(late)) }
            #expect(failure?.status == 403 && failure?.code == 1004)
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func cancellingEitherCodeStepEndsWithoutAuthFinish(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            for steps in [ScriptedSteps(start: [.cancel]), ScriptedSteps(start: [.confirm], finish: [.cancel])] {
                let token = try await f.app.initialize(.init(phoneNumber: Self.carrierFails, flowType: "mobile"))
                let sdk = f.sdk(testMode: true, steps: steps)
                let ended = LockedBox<PossessionAuthError?>(nil)
                let done = sdk.authenticate(token) { error in ended.value = error }
                await done.value
                #expect(ended.value == .cancelled)
                #expect(steps.authFinished.isEmpty)
                let verified = try await f.app.verify(.init(authId: try Self.flowID(token)))
                #expect(verified["success"] as? Bool == false)
            }
        } catch { Issue.record(error) }
        await f.stop()
    }

    /// The flow id the authToken names (its `sub`), as AuthFinish would have received it.
    static func flowID(_ token: String) throws -> String {
        let payload = try #require(token.split(separator: ".").dropFirst().first)
        var text = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let object = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: text))) as? [String: Any]
        return try #require(object?["sub"] as? String)
    }
}
