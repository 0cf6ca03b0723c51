import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The code fallback: the verification engine's codes (hashed, limited, delivered through the
/// outbox), two minutes each, one entry, or three with `allowOTPRetry`. In test mode nothing is
/// sent and the code is `1234`, as in every sandbox flow. A wrong code is counted in the transaction that checks it.
extension PossessionEngine {
    static func codePolicy(length: Int) -> OneTimeCodePolicy {
        var policy = OneTimeCodePolicy()
        policy.codeLength = length
        policy.lifetimeSeconds = codeLifetimeSeconds
        policy.attempts = retryEntries
        policy.resendSeconds = 30
        return policy
    }

    public func otpStart(deviceToken: String, phoneNumber: String?) async throws -> DeviceProgress {
        let now = self.now
        let codes = self.codes
        let progress = try await database.write { db -> DeviceProgress in
            var flow = try Self.deviceFlow(db, deviceToken: deviceToken, now: now)
            guard flow.deviceStep == .otpStart else { throw PossessionError(.stepNotAllowed, "no code may be sent now") }
            let given = try phoneNumber.flatMap { $0.isEmpty ? nil : $0 }.map {
                try PossessionNumbers.e164($0, environment: flow.environment, field: "phoneNumber")
            }
            guard let number = flow.phoneNumber ?? given else { throw PossessionError(.phoneNumberInvalid, "a phone number is needed", field: "phoneNumber") }
            if let given, given != number {
                throw PossessionError(.phoneNumberInvalid, "phoneNumber is not the number this flow checks", field: "phoneNumber")
            }
            if !flow.usesFixedCode {
                do {
                    try codes.sendOneTimeCode(
                        db, tenantID: flow.tenantID, purpose: "possession-\(flow.otpLength)", policy: Self.codePolicy(length: flow.otpLength),
                        channel: .phone, destination: String(number.dropFirst()), now: now)
                } catch let recent as OneTimeCodeSentRecently {
                    throw PossessionError(.otpSentRecently, "a code went to this number moments ago", retryAfter: recent.retryAfter)
                }
            }
            flow.phoneNumber = number
            flow.deviceStep = .otpFinish
            flow.otpTries = flow.details.allowOTPRetry ? Self.retryEntries : 1
            flow.otpExpiresAt = now.addingTimeInterval(TimeInterval(Self.codeLifetimeSeconds))
            guard try flow.save(db, now: now) else { throw PossessionError(.stepNotAllowed, "the flow changed meanwhile") }
            return flow.progress
        }
        codes.wakeDelivery()
        return progress
    }

    private enum CodeOutcome: Sendable { case verified(DeviceProgress), wrong, expired, exhausted }

    public func otpFinish(deviceToken: String, otp: String) async throws -> DeviceProgress {
        let now = self.now
        let codes = self.codes
        // Failures that end the flow are committed, then thrown.
        let outcome = try await database.write { db -> CodeOutcome in
            var flow = try Self.deviceFlow(db, deviceToken: deviceToken, now: now)
            guard flow.deviceStep == .otpFinish, let number = flow.phoneNumber else { throw PossessionError(.stepNotAllowed, "no code is due") }
            let outcome: CodeOutcome
            if let expiry = flow.otpExpiresAt, now >= expiry {
                outcome = .expired
            } else if flow.usesFixedCode {
                outcome = constantTimeEquals(Array(otp.utf8), Array(TestModeCarrier.fixedCode.utf8)) ? .verified(flow.progress) : .wrong
            } else {
                let digits = otp.utf8.count <= 10 && otp.utf8.allSatisfy { (48...57).contains($0) }
                let check: OneTimeCodeCheck = digits
                    ? try codes.checkOneTimeCode(
                        db, tenantID: flow.tenantID, purpose: "possession-\(flow.otpLength)", policy: Self.codePolicy(length: flow.otpLength),
                        channel: .phone, destination: String(number.dropFirst()), code: otp, now: now)
                    : .invalid
                switch check {
                case .verified: outcome = .verified(flow.progress)
                case .invalid: outcome = .wrong
                case .expired: outcome = .expired
                case .tooManyAttempts: outcome = .exhausted
                }
            }
            switch outcome {
            case .verified:
                flow.deviceStep = .possessed
                flow.possessedNumber = number
                flow.outcome = "otp_verified"
            case .wrong:
                flow.otpTries -= 1
                if flow.otpTries <= 0 {
                    flow.deviceStep = .failed
                    flow.outcome = "otp_attempts_exhausted"
                }
            case .expired:
                flow.deviceStep = .failed
                flow.outcome = "otp_expired"
            case .exhausted:
                flow.deviceStep = .failed
                flow.outcome = "otp_attempts_exhausted"
            }
            guard try flow.save(db, now: now) else { throw PossessionError(.stepNotAllowed, "the flow changed meanwhile") }
            if case .verified = outcome { return .verified(flow.progress) }
            if case .wrong = outcome, flow.deviceStep == .failed { return .exhausted }
            return outcome
        }
        switch outcome {
        case .verified(let progress): return progress
        case .wrong: throw PossessionError(.otpInvalid, "the code is not valid")
        case .expired: throw PossessionError(.otpExpired, "the code has expired")
        case .exhausted: throw PossessionError(.otpAttemptsExhausted, "no tries are left for this code")
        }
    }
}
