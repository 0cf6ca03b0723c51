import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehousePossessionEngine
import GatehouseWire

/// The device-facing possession API under `/api/possession/v1`, which only the
/// `GatehousePossession` SDK calls: `begin` with the flow's one-time authToken, then the
/// carrier check's evidence, the code's start and finish, or cancel, with the device token.
enum PossessionDeviceRoutes {
    static let prefix = PossessionWire.basePath

    static func register(on router: Router, engine: PossessionEngine, perMinute: Int, logger: Logger) {
        router.renderErrors(under: "/api/possession") { error, _, context in ProveError.render(error, context: context, logger: logger) }
        // Per client address: the tokens are long random values, this only keeps floods off the database.
        let calls = PerMinuteLimit(name: "possession-device", perMinute: perMinute, environment: engine.environment) { retryAfter in
            ProveError(429, .rateLimited, "too many requests", retryAfter: retryAfter)
        }
        let (endpoints, tokens) = (PossessionWire.Endpoints.self, PossessionTokenAuthenticator(calls: calls))
        router.on(endpoints.begin, tokens, maxBodySize: 4096) { request, _, token in
            let body = try request.decode(PossessionWire.BeginRequest.self)
            let session = try await engine.begin(authToken: token, testMode: body.testMode)
            return try .json(PossessionWire.Session(
                deviceToken: session.deviceToken, authId: session.authId, testMode: session.testMode, step: .init(session.progress)))
        }
        router.on(endpoints.carrierCheck, tokens, maxBodySize: 8192) { request, _, token in
            let body = try request.decode(PossessionWire.CarrierEvidence.self)
            let evidence = CarrierEvidence(provider: body.provider, code: body.code, state: body.state, error: body.error)
            return try .json(PossessionWire.Step(try await engine.carrierEvidence(deviceToken: token, evidence)))
        }
        router.on(endpoints.otpStart, tokens, maxBodySize: 4096) { request, _, token in
            let body = try request.decode(PossessionWire.OTPStartRequest.self)
            return try .json(PossessionWire.Step(try await engine.otpStart(deviceToken: token, phoneNumber: body.phoneNumber)))
        }
        router.on(endpoints.otpFinish, tokens, maxBodySize: 4096) { request, _, token in
            let body = try request.decode(PossessionWire.OTPFinishRequest.self)
            return try .json(PossessionWire.Step(try await engine.otpFinish(deviceToken: token, otp: body.otp)))
        }
        router.on(endpoints.cancel, tokens, maxBodySize: 4096) { _, _, token in
            try .json(PossessionWire.Step(try await engine.cancel(deviceToken: token)))
        }
    }
}

extension PossessionWire.Step {
    init(_ progress: DeviceProgress) {
        self.init(
            next: PossessionWire.Next(rawValue: progress.next.rawValue) ?? .failed, phoneNumberNeeded: progress.phoneNumberNeeded,
            carrierCheck: progress.carrierCheck.map {
                PossessionWire.CarrierCheck(provider: $0.provider, url: $0.url?.absoluteString, redirectUri: $0.redirectUri?.absoluteString)
            },
            otpLength: progress.otpLength, authId: progress.authId)
    }
}
