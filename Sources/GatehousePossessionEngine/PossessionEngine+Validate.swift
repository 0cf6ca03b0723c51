import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The server-to-server steps after the device: Validate (did the device prove possession?),
/// Challenge (the pre-fill, behind a date of birth or SSN) and Complete (the user's confirmed
/// individual compared with the directory). Each is allowed only when the flow's stored
/// `server_step` names it.
extension PossessionEngine {
    public struct Validated: Sendable, Equatable {
        public let success: Bool
        public let challengeMissing: Bool
        public let phoneNumber: String?
        /// `v3-challenge`, `v3-validate` (the device is still at work) or `done`.
        public let next: String
    }

    public struct Challenged: Sendable, Equatable {
        public let success: Bool
        public let individual: Individual?
        public let next: String
    }

    public struct Completed: Sendable, Equatable {
        public let success: Bool
        public let comparison: IdentityComparison?
        public let changeDetected: Bool?
        public let next: String
    }

    /// Most wrong challenges before the flow ends.
    static let challengeTries = 3

    public func validate(caller: Caller, correlationId: String?) async throws -> Validated {
        let now = self.now
        return try await step(caller, correlationId, .validate, now: now) { db, flow in
            // Prove's short-term test users skip the device, so a backend can walk the API first.
            if flow.skipsTheDevice, try flow.tenantAllows(db) {
                flow.deviceStep = .possessed
                flow.possessedNumber = flow.phoneNumber
                flow.outcome = "sandbox_short_term"
            }
            switch flow.deviceStep {
            case .possessed:
                flow.serverStep = .challenge
                return Validated(success: true, challengeMissing: flow.sealedChallenge == nil, phoneNumber: flow.possessedNumber, next: flow.serverStep.rawValue)
            case .failed:
                flow.serverStep = .done
                return Validated(success: false, challengeMissing: false, phoneNumber: nil, next: flow.serverStep.rawValue)
            case .begin, .carrierCheck, .otpStart, .otpFinish:
                return Validated(success: false, challengeMissing: false, phoneNumber: nil, next: flow.serverStep.rawValue)
            }
        }
    }

    public func challenge(caller: Caller, correlationId: String?, dob: String?, ssn: String?) async throws -> Challenged {
        let keys = try requireKeys()
        let now = self.now
        return try await step(caller, correlationId, .challenge, now: now) { [self] db, flow in
            let stored = try flow.sealedChallenge.flatMap { keys.box.open($0, context: Self.challengeContext(flow.id)) }
                .map { try StoredJSON.decode($0) as Challenge }
            guard let given = try Challenge(dob: dob.flatMap { $0.isEmpty ? nil : $0 }, ssn: ssn.flatMap { $0.isEmpty ? nil : $0 }) ?? stored else {
                throw PossessionError(.fieldMissing, .missingEither("dob", or: "ssn"))
            }
            let settings = try Self.settings(db, tenantID: flow.tenantID).settings
            guard let number = flow.possessedNumber, let record = try identity(db, tenantID: flow.tenantID, phoneNumber: number),
                IdentityMatch.challenge(given, matches: record)
            else {
                flow.challengeTries += 1
                if flow.challengeTries >= Self.challengeTries { flow.serverStep = .done }
                return Challenged(success: false, individual: nil, next: flow.serverStep.rawValue)
            }
            let individual = IdentityMatch.prefill(record, fullSsn: settings.returnFullSsn)
            flow.sealedPrefill = keys.box.seal(try StoredJSON.encode(individual), context: Self.prefillContext(flow.id))
            flow.serverStep = .complete
            return Challenged(success: true, individual: individual, next: flow.serverStep.rawValue)
        }
    }

    public func complete(caller: Caller, correlationId: String?, individual: Individual?) async throws -> Completed {
        let keys = try requireKeys()
        guard let individual else { throw PossessionError.missing("individual") }
        try Self.checkComplete(individual)
        let now = self.now
        return try await step(caller, correlationId, .complete, now: now) { [self] db, flow in
            flow.serverStep = .done
            let record = try flow.possessedNumber.flatMap { try identity(db, tenantID: flow.tenantID, phoneNumber: $0) }
            let prefill = try flow.sealedPrefill.flatMap { keys.box.open($0, context: Self.prefillContext(flow.id)) }
                .map { try StoredJSON.decode($0) as Individual }
            guard let record else {
                flow.outcome = "complete_no_identity"
                return Completed(success: false, comparison: nil, changeDetected: nil, next: flow.serverStep.rawValue)
            }
            let comparison = IdentityMatch.compare(individual, with: record)
            flow.outcome = comparison.matched ? "complete_verified" : "complete_not_verified"
            return Completed(
                success: comparison.matched, comparison: comparison, changeDetected: prefill.map { IdentityMatch.changed(individual, from: $0) },
                next: flow.serverStep.rawValue)
        }
    }

    /// Prove's rule: the first and last name, or the SSN (all nine digits or the last four);
    /// whatever else is given must be well formed.
    static func checkComplete(_ individual: Individual) throws {
        let first = individual.firstName.flatMap { $0.isEmpty ? nil : $0 }
        let last = individual.lastName.flatMap { $0.isEmpty ? nil : $0 }
        let ssn = individual.ssn.flatMap { $0.isEmpty ? nil : $0 }
        if ssn == nil {
            if first == nil { throw PossessionError(.fieldMissing, .missingOrAlternative("individual.firstName", alternative: "individual.ssn")) }
            if last == nil { throw PossessionError(.fieldMissing, .missingOrAlternative("individual.lastName", alternative: "individual.ssn")) }
        }
        for (name, value) in [("individual.firstName", first), ("individual.lastName", last)] {
            if let value, !PossessionText.isName(value) { throw PossessionError.invalid(name, .printableText(1...100)) }
        }
        // An SSN that cannot be compared must not pass as one that matched: it may be all a Complete gives.
        if let ssn, IdentityMatch.ssnDigits(ssn) == nil { throw PossessionError.invalid("individual.ssn", .ssnOrLastFour) }
        if let dob = individual.dob, !dob.isEmpty, BirthDate(dob) == nil { throw PossessionError.invalid("individual.dob", .dateOrPart) }
    }

    /// Runs one server step on the caller's flow in one transaction: found (in the caller's
    /// tenant), not expired, and allowed by `server_step`; then saved as `body` left it.
    private func step<T: Sendable>(
        _ caller: Caller, _ correlationId: String?, _ expected: Flow.ServerStep, now: Date,
        _ body: @escaping @Sendable (any DatabaseConnection, inout Flow) throws -> T
    ) async throws -> T {
        guard let correlationId, !correlationId.isEmpty else { throw PossessionError.missing("correlationId") }
        guard let uuid = UUID(uuidString: correlationId) else { throw PossessionError(.noSuchFlow, .unknownCorrelationId) }
        return try await database.write { db in
            guard var flow = try Flow.load(db, id: uuid.uuidString.lowercased(), tenantID: caller.tenantID) else {
                throw PossessionError(.noSuchFlow, .unknownCorrelationId)
            }
            guard !flow.isExpired(at: now) else { throw PossessionError(.flowExpired, .flowExpired) }
            guard flow.serverStep == expected else { throw PossessionError(.stepNotAllowed, .stepOutOfOrder) }
            let result = try body(db, &flow)
            guard try flow.save(db, now: now) else { throw PossessionError(.stepNotAllowed, .stepOutOfOrder) }
            return result
        }
    }
}
