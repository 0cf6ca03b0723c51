import Foundation
import GatehouseClientCore
import GatehouseWire

/// One authentication, start to end: read the authToken, `begin`, then do what each step's `next` says
/// until `done` (AuthFinish runs) or an error. Every authentication has its own flow value and state.
struct PossessionFlow: Sendable {
    /// More steps than any real flow takes (carrier check, OTP start, OTP finish): a server looping ends here.
    static let maxSteps = 16

    let configuration: Configuration

    /// Runs the flow and returns the authId AuthFinish received; throws `PossessionAuthError`.
    func run(_ authToken: String) async throws -> String {
        let claims = try AuthTokenClaims(token: authToken)
        if configuration.testMode, !claims.isSandbox { throw PossessionAuthError.testModeRefused }
        guard let gatehouse = configuration.gatehouse ?? claims.gatehouse else { throw PossessionAuthError.authTokenInvalid }
        var api = DeviceAPI(
            gatehouse: gatehouse, bearer: authToken, transport: configuration.transport ?? URLSessionTransport(followsRedirects: false),
            logger: configuration.logger)
        let session: PossessionWire.Session
        do {
            session = try await api.begin(testMode: configuration.testMode)
        } catch {
            throw Task.isCancelled ? PossessionAuthError.cancelled : PossessionAuthError(error)
        }
        api.bearer = session.deviceToken
        let authId: String
        do {
            authId = try await walk(from: session.step, api) ?? session.authId
        } catch {
            let error = Task.isCancelled ? PossessionAuthError.cancelled : PossessionAuthError(error)
            // The flow is still open on the server: say it is over rather than leave it to expire.
            if error == .cancelled || error == .otpFallbackNotConfigured { await api.cancel() }
            throw error
        }
        // Cancelled while the last answer was on its way: the app gave up, so AuthFinish does not run.
        guard !Task.isCancelled else {
            await api.cancel()
            throw PossessionAuthError.cancelled
        }
        log("possession: done")
        configuration.steps.serially { $0.authFinish.execute(authId: authId) }
        return authId
    }

    /// Follows `next` from `first`; the `done` step's authId (`nil` when it carried none).
    private func walk(from first: PossessionWire.Step, _ api: DeviceAPI) async throws -> String? {
        var step = first
        for _ in 0..<Self.maxSteps {
            log("possession: next \(step.next.rawValue)")
            switch step.next {
            case .carrierCheck: step = try await api.step(PossessionWire.Endpoints.carrierCheck, try await evidence(for: step.carrierCheck))
            case .otpStart: step = try await otpStart(phoneNumberNeeded: step.phoneNumberNeeded ?? false, api)
            case .otpFinish: step = try await otpFinish(api)
            case .done: return step.authId
            case .failed: throw PossessionAuthError.flowFailed
            }
        }
        throw PossessionAuthError.flowFailed
    }

    /// What the carrier check produced; Gatehouse's sandbox check (`test`) has nothing to run on the device.
    private func evidence(for check: PossessionWire.CarrierCheck?) async throws -> PossessionWire.CarrierEvidence {
        guard let check else { throw PossessionAuthError.unexpectedResponse("carrier_check without a check") }
        if check.provider == "test" { return PossessionWire.CarrierEvidence(provider: "test") }
        let challenge = CarrierCheckChallenge(
            provider: check.provider, url: check.url.flatMap(URL.init(string:)), redirectUri: check.redirectUri.flatMap(URL.init(string:)))
        let outcome = await configuration.effectiveCarrierCheck.run(challenge)
        log("possession: carrier check \(Self.summary(outcome))")
        return outcome.evidence(provider: check.provider)
    }

    /// Asks OtpStart until Gatehouse takes the number (re-asking after a refused one), or the user cancels.
    private func otpStart(phoneNumberNeeded: Bool, _ api: DeviceAPI) async throws -> PossessionWire.Step {
        guard configuration.steps.hasOTPFallback else { throw PossessionAuthError.otpFallbackNotConfigured }
        var validation: PossessionAuthError?
        while true {
            let answer = OneShot<StepAnswer<OtpStartInput>>()
            configuration.steps.serially {
                $0.otpStart?.execute(phoneNumberNeeded: phoneNumberNeeded, phoneValidationError: validation, callback: OtpStartStepCallback(answer))
            }
            guard case .success(let input) = await answer.wait(orIfCancelled: .cancelled) else { throw PossessionAuthError.cancelled }
            do {
                return try await api.step(PossessionWire.Endpoints.otpStart, PossessionWire.OTPStartRequest(phoneNumber: input?.phoneNumber))
            } catch PossessionAuthError.phoneNumberValidationError {
                validation = .phoneNumberValidationError
            }
        }
    }

    /// Asks OtpFinish until Gatehouse takes the code (re-asking after a wrong one), or the user cancels.
    private func otpFinish(_ api: DeviceAPI) async throws -> PossessionWire.Step {
        guard configuration.steps.hasOTPFallback else { throw PossessionAuthError.otpFallbackNotConfigured }
        var otpError: PossessionAuthError?
        while true {
            let answer = OneShot<StepAnswer<OtpFinishInput>>()
            configuration.steps.serially { $0.otpFinish?.execute(otpError: otpError, callback: OtpFinishStepCallback(answer)) }
            guard case .success(let input?) = await answer.wait(orIfCancelled: .cancelled) else { throw PossessionAuthError.cancelled }
            do {
                return try await api.step(PossessionWire.Endpoints.otpFinish, PossessionWire.OTPFinishRequest(otp: input.otp))
            } catch PossessionAuthError.otpValidationError {
                otpError = .otpValidationError
            }
        }
    }

    private func log(_ line: String) { configuration.logger?(line) }

    /// The outcome without its code or state, which are credentials.
    private static func summary(_ outcome: CarrierCheckOutcome) -> String {
        switch outcome {
        case .redirected(let code, _, let error): error.map { "error \($0)" } ?? (code == nil ? "no code" : "code received")
        case .unavailable(let reason): "unavailable \(reason)"
        }
    }
}
