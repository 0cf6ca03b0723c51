import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The device's carrier check evidence. The operator is called outside any transaction; the
/// result is written only if the flow is still at its carrier check when it comes back, so
/// two posts of the same evidence decide once.
extension PossessionEngine {
    public func carrierEvidence(deviceToken: String, _ evidence: CarrierEvidence) async throws -> DeviceProgress {
        let now = self.now
        let (flow, stored) = try await database.read { db in
            let flow = try Self.deviceFlow(db, deviceToken: deviceToken, now: now, lock: false)
            return (flow, try Self.settings(db, tenantID: flow.tenantID))
        }
        guard flow.deviceStep == .carrierCheck else { throw PossessionError(.stepNotAllowed, "no carrier check is due") }
        guard evidence.provider == flow.carrierProvider else { throw PossessionError.invalid("provider", "is not this flow's carrier check") }
        let result = await carrierResult(flow, stored: stored, evidence: evidence)
        let progress = try await database.write { db in
            var current = try Self.deviceFlow(db, deviceToken: deviceToken, now: now)
            // Under the row's lock: whoever decides first moves the step on. (Not the version: a
            // Validate that found the device still at work must not void its evidence.)
            guard current.deviceStep == .carrierCheck, current.carrierStateHash == flow.carrierStateHash else {
                throw PossessionError(.stepNotAllowed, "the carrier check was already decided")
            }
            current.carrierStateHash = nil
            switch result {
            case .verified:
                current.deviceStep = .possessed
                current.possessedNumber = current.phoneNumber
                current.outcome = "carrier_verified"
            case .invalidNumber:
                current.deviceStep = .failed
                current.outcome = "carrier_invalid_number"
            case .notVerified, .unavailable:
                current.deviceStep = .otpStart
                current.outcome = result == .notVerified ? "carrier_not_verified" : "carrier_unavailable"
            }
            guard try current.save(db, now: now) else { throw PossessionError(.stepNotAllowed, "the carrier check was already decided") }
            return current.progress
        }
        if case .unavailable(let reason) = result {
            environment.logger.info("possession carrier check unavailable, falling to the code", ["flow": .plain(flow.id), "reason": .init(reason)])
        }
        return progress
    }

    private func carrierResult(_ flow: Flow, stored: StoredSettings, evidence: CarrierEvidence) async -> CarrierResult {
        if flow.carrierProvider == "test" { return TestModeCarrier.result(for: flow.number) }
        if let error = evidence.error { return .unavailable("device: " + String(error.prefix(64))) }
        guard let code = evidence.code, !code.isEmpty, code.utf8.count <= 2048, let state = evidence.state, let expected = flow.carrierStateHash,
            constantTimeEquals(SHA256.hash(Data(state.utf8)), expected)
        else { return .unavailable("no code, or a state that is not this flow's") }
        guard let settings = stored.settings.carrier, let provider = carriers[flow.carrierProvider ?? ""], let number = flow.number,
            let secret = carrierSecret(stored, tenantID: flow.tenantID)
        else { return .unavailable("carrier no longer configured") }
        return await provider.verify(settings, clientSecret: secret, code: code, phoneNumber: number)
    }
}
