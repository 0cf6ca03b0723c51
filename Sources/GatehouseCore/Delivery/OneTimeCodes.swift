import Foundation
import GatehouseDatabase

/// The one-time codes that sign-in and the possession check's fallback ask for: generated,
/// hashed, delivered, limited and checked by the verification engine (wired in
/// GatehouseServer), so that codes have one set of rules. Each call runs in a transaction
/// the caller holds: an account or a flow, its code and the code's queued delivery commit
/// together, and a check is decided in the transaction that also counts the caller's own caps.
public protocol OneTimeCodes: Sendable {
    /// Queues a new code to `destination` (phone: E.164 digits; email: lower-cased), which
    /// replaces any live one; `message` (with `{{CODE}}` once) is its text instead of the
    /// purpose's own. Throws `OneTimeCodeSentRecently` when the last code went out within
    /// `policy.resendSeconds`.
    func sendOneTimeCode(
        _ db: any DatabaseConnection, tenantID: String, purpose: String, policy: OneTimeCodePolicy, channel: OneTimeCodeChannel,
        destination: String, message: String?, now: Date) throws

    /// Sends the lookup of `destination`'s live code without waiting, so that it travels with
    /// the caller's own reads; ``PendingOneTimeCodeCheck/apply()`` then checks `code` against
    /// it and counts the attempt. A code works once. A caller that decides against the check
    /// (a cap of its own reached) never applies it, and nothing is counted.
    func sendOneTimeCodeCheck(
        _ db: any DatabaseConnection, tenantID: String, purpose: String, policy: OneTimeCodePolicy, channel: OneTimeCodeChannel,
        destination: String, code: String, now: Date) throws -> PendingOneTimeCodeCheck

    /// Called once the transaction that queued a code has committed, so that this node
    /// sends it at once instead of when the queue is next polled.
    func wakeDelivery()
}

/// Where a code goes: a phone gets it by SMS.
public enum OneTimeCodeChannel: String, Sendable {
    case phone, email
}

/// A one-time code's check whose lookup was sent (see ``OneTimeCodes/sendOneTimeCodeCheck(_:tenantID:purpose:policy:channel:destination:code:now:)``).
public struct PendingOneTimeCodeCheck {
    private let decide: () throws -> OneTimeCodeCheck

    public init(_ decide: @escaping () throws -> OneTimeCodeCheck) {
        self.decide = decide
    }

    /// Reads the lookup, checks the code and counts the attempt, in the caller's transaction.
    public func apply() throws -> OneTimeCodeCheck {
        try decide()
    }
}

extension OneTimeCodes {
    /// Checks `code` against the live code of `destination`, counting the attempt. A code
    /// works once.
    public func checkOneTimeCode(
        _ db: any DatabaseConnection, tenantID: String, purpose: String, policy: OneTimeCodePolicy, channel: OneTimeCodeChannel,
        destination: String, code: String, now: Date
    ) throws -> OneTimeCodeCheck {
        try sendOneTimeCodeCheck(
            db, tenantID: tenantID, purpose: purpose, policy: policy, channel: channel, destination: destination, code: code, now: now
        ).apply()
    }

    /// A code in the purpose's own text.
    public func sendOneTimeCode(
        _ db: any DatabaseConnection, tenantID: String, purpose: String, policy: OneTimeCodePolicy, channel: OneTimeCodeChannel,
        destination: String, now: Date
    ) throws {
        try sendOneTimeCode(db, tenantID: tenantID, purpose: purpose, policy: policy, channel: channel, destination: destination, message: nil, now: now)
    }
}

/// How codes are made and limited; each purpose keeps one policy.
public struct OneTimeCodePolicy: Sendable, Equatable {
    public var codeLength = 6
    public var lifetimeSeconds = 600
    /// Checks one code allows, wrong ones included.
    public var attempts = 5
    /// A new code for the same destination within this many seconds is refused.
    public var resendSeconds = 60
    public init() {}
}

/// What checking a code found.
public enum OneTimeCodeCheck: Sendable, Equatable {
    case verified
    /// Wrong, unknown or already used: one answer, so nothing leaks about which.
    case invalid
    case expired
    /// The code used up its attempts.
    case tooManyAttempts
}

/// Codes to numbers like this one are held back for now: its prefix is blocked against SMS
/// pumping, or its prefix's or country's budget is spent. `retryAfter` is nil for a block
/// with no end.
public struct OneTimeCodeRefused: Error, Equatable, Sendable {
    public let retryAfter: Int?
    public init(retryAfter: Int?) { self.retryAfter = retryAfter }
}

/// A code went to this destination moments ago; another may be sent in `retryAfter` seconds.
public struct OneTimeCodeSentRecently: Error, Equatable, Sendable {
    public let retryAfter: Int
    public init(retryAfter: Int) { self.retryAfter = retryAfter }
}
