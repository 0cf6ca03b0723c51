import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The code fallback: the verification engine's codes (hashed, limited, delivered through the
/// outbox), two minutes each, one entry, or three with `allowOTPRetry`. In test mode nothing is
/// sent and the code is `1234`, as in every sandbox flow. Across flows, each number gets at most
/// `codesPerHour` codes and `wrongCodesPerHour` wrong entries, counted in durable counters in
/// the transactions that send and check, so new flows do not buy new guesses. A wrong code is counted in the transaction that checks it.
extension PossessionEngine {
    /// Codes one number may be sent in an hour, over all of a tenant's flows.
    public static let codesPerHour = 10
    /// Wrong codes one number may see entered in an hour, over all of a tenant's flows.
    public static let wrongCodesPerHour = 10

    static func counterKeys(_ flow: Flow, _ number: String) -> (sent: String, wrong: String) {
        ("possession-sent:\(flow.tenantID):\(number)", "possession-wrong:\(flow.tenantID):\(number)")
    }

    static func codePolicy(length: Int) -> OneTimeCodePolicy {
        var policy = OneTimeCodePolicy()
        policy.codeLength = length
        policy.lifetimeSeconds = codeLifetimeSeconds
        policy.attempts = retryEntries
        policy.resendSeconds = 30
        return policy
    }

    /// Start's `smsMessage` with its run of `#` as the code's place.
    static func template(_ message: String) -> String {
        guard let start = message.firstIndex(of: "#") else { return message }
        let end = message[start...].firstIndex { $0 != "#" } ?? message.endIndex
        return message.replacingCharacters(in: start..<end, with: "{{CODE}}")
    }

    public func otpStart(deviceToken: String, phoneNumber: String?) async throws -> DeviceProgress {
        let now = self.now
        let codes = self.codes
        let progress = try await database.write { db -> DeviceProgress in
            var flow = try Self.deviceFlow(db, deviceToken: deviceToken, now: now)
            guard flow.deviceStep == .otpStart else { throw PossessionError(.stepNotAllowed, .noCodeToSend) }
            let given = try phoneNumber.flatMap { $0.isEmpty ? nil : $0 }.map {
                try PossessionNumbers.e164($0, environment: flow.environment, field: "phoneNumber")
            }
            guard let number = flow.phoneNumber ?? given else { throw PossessionError(.phoneNumberInvalid, .phoneNumberNeeded) }
            if let given, given != number {
                throw PossessionError(.phoneNumberInvalid, .phoneNumber("phoneNumber", .notTheFlowsNumber))
            }
            if !flow.usesFixedCode {
                let keys = Self.counterKeys(flow, number)
                let wrong = try RateCounter.peek(db, key: keys.wrong, now: now, window: 3600)
                let sent = try RateCounter.hit(db, key: keys.sent, now: now, window: 3600)
                if wrong.count >= Self.wrongCodesPerHour || sent.count > Self.codesPerHour {
                    throw PossessionError(.rateLimited, .tooManyCodes, retryAfter: max(wrong.retryAfter, sent.retryAfter))
                }
                do {
                    try codes.sendOneTimeCode(
                        db, tenantID: flow.tenantID, purpose: "possession-\(flow.otpLength)", policy: Self.codePolicy(length: flow.otpLength),
                        channel: .phone, destination: String(number.dropFirst()), message: flow.details.smsMessage.map(Self.template), now: now)
                } catch let recent as OneTimeCodeSentRecently {
                    throw PossessionError(.otpSentRecently, .codeSentRecently, retryAfter: recent.retryAfter)
                } catch let refused as OneTimeCodeRefused {
                    throw PossessionError(.rateLimited, .numberHeldBack, retryAfter: refused.retryAfter)
                }
            }
            flow.phoneNumber = number
            flow.deviceStep = .otpFinish
            flow.otpTries = flow.details.allowOTPRetry ? Self.retryEntries : 1
            flow.otpExpiresAt = now.addingTimeInterval(TimeInterval(Self.codeLifetimeSeconds))
            guard try flow.save(db, now: now) else { throw PossessionError(.stepNotAllowed, .flowChanged) }
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
            guard flow.deviceStep == .otpFinish, let number = flow.phoneNumber else { throw PossessionError(.stepNotAllowed, .noCodeDue) }
            let outcome: CodeOutcome
            if let expiry = flow.otpExpiresAt, now >= expiry {
                outcome = .expired
            } else if flow.usesFixedCode {
                outcome = constantTimeEquals(Array(otp.utf8), Array(TestModeCarrier.fixedCode.utf8)) ? .verified(flow.progress) : .wrong
            } else if try RateCounter.lock(db, key: Self.counterKeys(flow, number).wrong, now: now, window: 3600).count >= Self.wrongCodesPerHour {
                outcome = .exhausted
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
            if !flow.usesFixedCode {
                let key = Self.counterKeys(flow, number).wrong
                if case .verified = outcome { try db.execute("DELETE FROM rate_counters WHERE counter_key = ?", key) }
                if case .wrong = outcome { _ = try RateCounter.hit(db, key: key, now: now, window: 3600) }
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
            guard try flow.save(db, now: now) else { throw PossessionError(.stepNotAllowed, .flowChanged) }
            if case .verified = outcome { return .verified(flow.progress) }
            if case .wrong = outcome, flow.deviceStep == .failed { return .exhausted }
            return outcome
        }
        switch outcome {
        case .verified(let progress): return progress
        case .wrong: throw PossessionError(.otpInvalid, .wrongCode)
        case .expired: throw PossessionError(.otpExpired, .codeExpired)
        case .exhausted: throw PossessionError(.otpAttemptsExhausted, .noTriesLeft)
        }
    }
}
