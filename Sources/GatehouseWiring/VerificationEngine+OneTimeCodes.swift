import Foundation
import GatehouseAccountsEngine
import GatehouseCore
import GatehouseDatabase
import GatehouseVerificationEngine

/// Sign-in codes are the verification engine's internal codes, on one internal application
/// per tenant and purpose: the same generation, hashing, attempts, cooldown and delivery as
/// the verification API. This only translates between the two engines' terms; the
/// verification engine's own `wakeDelivery()` satisfies the protocol as it is.
extension VerificationEngine: OneTimeCodes {
    public func sendOneTimeCode(
        _ db: any DatabaseConnection, tenantID: String, purpose: String, policy: OneTimeCodePolicy, channel: OneTimeCodeChannel,
        destination: String, message: String?, now: Date
    ) throws {
        let app = try internalApplication(db, tenantID: tenantID, purpose: purpose, policy: InternalCodePolicy(policy), now: now)
        do {
            try sendInternalCode(db, application: app, channel: VerificationChannel(channel), destination: destination, now: now, template: message)
        } catch let failure as VerificationFailure where failure.codes.first == .destinationInCooldown {
            // The cooldown always says how long; the whole window is the safe answer if not.
            throw OneTimeCodeSentRecently(retryAfter: failure.retryAfter ?? policy.resendSeconds)
        } catch let failure as VerificationFailure where failure.codes.first == .volumeLimitReached {
            throw OneTimeCodeRefused(retryAfter: failure.retryAfter)
        }
    }

    public func sendOneTimeCodeCheck(
        _ db: any DatabaseConnection, tenantID: String, purpose: String, policy: OneTimeCodePolicy, channel: OneTimeCodeChannel,
        destination: String, code: String, now: Date
    ) throws -> PendingOneTimeCodeCheck {
        let app = try internalApplication(db, tenantID: tenantID, purpose: purpose, policy: InternalCodePolicy(policy), now: now)
        let pending = try sendInternalCodeCheck(
            db, application: app, channel: VerificationChannel(channel), destination: destination, code: code, now: now)
        return PendingOneTimeCodeCheck {
            switch try pending.apply() {
            case .verified: return .verified
            case .invalid: return .invalid
            case .expired: return .expired
            case .tooManyAttempts: return .tooManyAttempts
            }
        }
    }
}

extension InternalCodePolicy {
    init(_ policy: OneTimeCodePolicy) {
        self.init()
        codeLength = policy.codeLength
        lifetimeSeconds = policy.lifetimeSeconds
        attempts = policy.attempts
        resendSeconds = policy.resendSeconds
    }
}

extension VerificationChannel {
    /// A phone gets its code by SMS.
    init(_ channel: OneTimeCodeChannel) {
        switch channel {
        case .phone: self = .sms
        case .email: self = .email
        }
    }
}
