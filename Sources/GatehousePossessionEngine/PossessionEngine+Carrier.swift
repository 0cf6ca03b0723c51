import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The device's carrier check evidence, in three steps: the evidence is claimed under the
/// flow's lock (its `state` spent, so a duplicate post calls no operator), the operator is
/// asked outside any transaction within the engine's `carrierDeadline`, and the result is written under the
/// lock again if the flow is still at its carrier check.
extension PossessionEngine {
    public func carrierEvidence(deviceToken: String, _ evidence: CarrierEvidence) async throws -> DeviceProgress {
        let claimedAt = self.now
        let (flow, stored) = try await database.write { db in
            var flow = try Self.deviceFlow(db, deviceToken: deviceToken, now: claimedAt)
            guard flow.deviceStep == .carrierCheck, flow.carrierProvider == "test" || flow.carrierStateHash != nil else {
                throw PossessionError(.stepNotAllowed, .noCarrierCheckDue)
            }
            guard evidence.provider == flow.carrierProvider else { throw PossessionError.invalid("provider", .thisFlowsCarrierCheck) }
            let claimed = flow
            flow.carrierStateHash = nil
            guard try flow.save(db, now: claimedAt) else { throw PossessionError(.stepNotAllowed, .carrierCheckDecided) }
            return (claimed, try Self.settings(db, tenantID: flow.tenantID))
        }
        let result = await carrierResult(flow, stored: stored, evidence: evidence)
        let now = self.now
        let progress = try await database.write { db in
            var current = try Self.deviceFlow(db, deviceToken: deviceToken, now: now)
            guard current.deviceStep == .carrierCheck else { throw PossessionError(.stepNotAllowed, .carrierCheckDecided) }
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
            guard try current.save(db, now: now) else { throw PossessionError(.stepNotAllowed, .carrierCheckDecided) }
            return current.progress
        }
        if case .unavailable(let reason) = result {
            environment.logger.info("possession carrier check unavailable, falling to the code", ["flow": .plain(flow.id), "reason": .plain(reason)])
        }
        return progress
    }

    /// The check's result. Reasons are fixed words or sanitized tokens: device text never reaches a log.
    private func carrierResult(_ flow: Flow, stored: StoredSettings, evidence: CarrierEvidence) async -> CarrierResult {
        if flow.carrierProvider == "test" { return TestModeCarrier.result(for: flow.number) }
        if let error = evidence.error { return .unavailable("device: " + Self.token(error)) }
        guard let code = evidence.code, !code.isEmpty, code.utf8.count <= 2048, let state = evidence.state, let expected = flow.carrierStateHash,
            constantTimeEquals(SHA256.hash(Data(state.utf8)), expected)
        else { return .unavailable("no code, or a state that is not this flow's") }
        guard let settings = stored.settings.carrier, let provider = carriers[flow.carrierProvider ?? ""], let number = flow.number,
            let secret = carrierSecret(stored, tenantID: flow.tenantID)
        else { return .unavailable("carrier no longer configured") }
        return await Self.within(carrierDeadline, clock: environment.clock) { await provider.verify(settings, clientSecret: secret, code: code, phoneNumber: number) }
            ?? .unavailable("operator took longer than \(carrierDeadline) s")
    }

    /// `operation`'s result, or nil once `seconds` of `clock` have passed; the operation is
    /// then cancelled and not waited for (an operator's transfer may take its time to stop).
    static func within(
        _ seconds: TimeInterval, clock: any Clock, _ operation: @escaping @Sendable () async -> CarrierResult
    ) async -> CarrierResult? {
        let race = Race()
        return await withCheckedContinuation { continuation in
            let timer = Task {
                guard (try? await clock.sleep(for: seconds)) != nil else { return }
                if race.claim() {
                    race.cancelWork()
                    continuation.resume(returning: nil)
                }
            }
            race.setWork(Task {
                let result = await operation()
                timer.cancel()
                if race.claim() { continuation.resume(returning: result) }
            })
        }
    }

    /// A word the logs may carry: `[A-Za-z0-9_.-]` only, at most 40 characters, else `other`.
    static func token(_ text: String) -> String {
        let allowed = text.utf8.count <= 40 && !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0))
        }
        return allowed ? text : "other"
    }
}

// Safe: `taken` and `work` are only read and written under `lock`.
/// Lets exactly one of two racers resume a continuation, and the timer cancel the work.
private final class Race: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false
    private var work: Task<Void, Never>?

    func claim() -> Bool {
        lock.withLock {
            defer { taken = true }
            return !taken
        }
    }

    func setWork(_ task: Task<Void, Never>) { lock.withLock { work = task } }
    func cancelWork() { lock.withLock { work }?.cancel() }
}
