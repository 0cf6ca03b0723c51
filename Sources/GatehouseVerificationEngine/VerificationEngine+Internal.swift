import Foundation
import GatehouseCore
import GatehouseDatabase

/// What checking a sign-in code found.
public enum InternalCodeCheck: Sendable, Equatable {
    case verified
    /// Wrong, unknown or already used: one answer, so nothing leaks about which.
    case invalid
    case expired
    case tooManyAttempts
}

/// Settings of the internal applications that send Gatehouse's own sign-in codes.
public struct InternalCodePolicy: Sendable, Equatable {
    public var codeLength = 6
    public var lifetimeSeconds = 600
    public var attempts = 5
    /// A new code for the same destination within this many seconds is a 429.
    public var resendSeconds = 60
    public init() {}
}

// One-time codes for Gatehouse's own flows (OTP sign-in): the same code generation,
// hashing, attempts, supersede, cooldown, delivery and sweeping as the verification API,
// on one internal application per tenant and purpose.
extension VerificationEngine {
    /// The tenant's internal application for `purpose`, inside a transaction the caller
    /// holds. Only the first use writes; after that the row is read (and kept a few seconds
    /// on this node), never locked, so sign-ins of one tenant do not queue on it.
    public func internalApplication(_ db: any DatabaseConnection, tenantID: String, purpose: String, policy: InternalCodePolicy, now: Date)
        throws -> OTPApplication
    {
        let appKey = "internal:\(purpose):\(tenantID)"
        let select = "SELECT * FROM otp_applications WHERE app_key = ?"
        if let cached = internalApplications.cached(appKey, now: now) { return cached }
        let generation = internalApplications.currentGeneration
        // Kept once the transaction commits: the row read may be this transaction's insert, or
        // in SQLite's group commit an earlier member's, saved only if the batch commits.
        let keepOnceCommitted = { [internalApplications] (application: OTPApplication) -> OTPApplication in
            db.afterCommit { internalApplications.store(application, for: appKey, loadedIn: generation, now: now) }
            return application
        }
        if let existing = try db.queryOne(select, appKey).map(OTPApplication.init) { return keepOnceCommitted(existing) }
        var settings = OTPApplicationSettings()
        settings.name = "Gatehouse \(purpose)"
        settings.minimumAuth = .application
        settings.codeLength = policy.codeLength
        settings.lifetimeSeconds = policy.lifetimeSeconds
        settings.maxAttempts = policy.attempts
        settings.cooldownSeconds = policy.resendSeconds
        settings.smsFee = "0"
        settings.calloutFee = "0"
        let values = try ApplicationValues.defaults.applying(settings)
        try db.execute(
            ApplicationValues.insertSQL(extra: ["internal_purpose"]) + " ON CONFLICT (app_key) DO NOTHING",
            [
                .text(environment.ids.next().lowercased), .text(tenantID), .text(values.name), .text(appKey),
                .text(environment.random.token(byteCount: 32)),
            ] + values.columns + [now.sqlValue, .text(purpose)])
        return keepOnceCommitted(try OTPApplication(row: try db.queryOne(select, appKey)!))
    }

    /// Sends a code to a phone number (`sms`, digits) or an email address (`email`).
    /// A second code within the resend window is `destination_in_cooldown` with `Retry-After`.
    public func sendInternalCode(application app: OTPApplication, channel: VerificationChannel, destination: String) async throws {
        let now = self.now
        try await database.write { db in
            try self.sendInternalCode(db, application: app, channel: channel, destination: destination, now: now)
        }
        wakeDelivery()
    }

    /// The same inside a transaction the caller holds: the code is queued with it, and sent
    /// once it commits. Call `wakeDelivery()` after the commit so this node sends it at once.
    /// `template`, with `{{CODE}}` once, replaces the application's text for this code.
    public func sendInternalCode(
        _ db: any DatabaseConnection, application app: OTPApplication, channel: VerificationChannel, destination: String, now: Date,
        template: String? = nil
    ) throws {
        var valid = ValidStart(
            destination: destination, channel: channel, languages: [], appHash: nil, autofill: "none", templateGroup: nil, custom: nil)
        if let template, MessageRenderer.isValidSMSTemplate(template) { valid.template = template }
        let caller = VerificationCaller(application: app, mode: .application)
        _ = try create(
            db, caller: caller, valid: valid, decision: nil, id: environment.ids.next().lowercased,
            code: environment.random.numericCode(digits: app.codeLength), fee: 0, now: now)
    }

    /// Tells this node's dispatcher that a committed transaction queued a delivery.
    public func wakeDelivery() { doorbell.ring() }

    /// Checks a code against the live code of a destination. A code works once.
    public func checkInternalCode(application app: OTPApplication, channel: VerificationChannel, destination: String, code: String)
        async throws -> InternalCodeCheck
    {
        let now = self.now
        return try await database.write { db in
            try self.checkInternalCode(db, application: app, channel: channel, destination: destination, code: code, now: now)
        }
    }

    /// The same check inside a transaction the caller holds, so that a limit of its own
    /// (the hourly wrong-code cap of sign-in) is decided and counted in the transaction
    /// that checks the code.
    public func checkInternalCode(
        _ db: any DatabaseConnection, application app: OTPApplication, channel: VerificationChannel, destination: String, code: String,
        now: Date
    ) throws -> InternalCodeCheck {
        try sendInternalCodeCheck(db, application: app, channel: channel, destination: destination, code: code, now: now).apply()
    }

    /// The same check with its lookup sent without waiting, so that it travels with the
    /// caller's own reads; `apply()` reads it, checks the code and counts the attempt. A caller
    /// that decides against the check (a cap of its own reached) never applies it, and
    /// nothing is counted.
    public func sendInternalCodeCheck(
        _ db: any DatabaseConnection, application app: OTPApplication, channel: VerificationChannel, destination: String, code: String,
        now: Date
    ) throws -> PendingInternalCodeCheck {
        let sent = try Self.sendRow(db, .number(destination), applicationID: app.id, now: now, lock: true)
        return PendingInternalCodeCheck {
            guard let row = try sent.row() else { return .invalid }
            return try self.judgeInternalCode(db, row: row, channel: channel, code: code, now: now)
        }
    }

    private func judgeInternalCode(_ db: any DatabaseConnection, row: Row, channel: VerificationChannel, code: String, now: Date)
        throws -> InternalCodeCheck
    {
        let record = try VerificationRecord(row: row)
        guard record.channel == channel else { return .invalid }
        switch record.status(at: now) {
        case .expired: return .expired
        case .failed where record.outcome(at: now) == .tooManyAttempts: return .tooManyAttempts
        case .verified, .failed, .denied: return .invalid
        case .pending: break
        }
        let matches = Self.codeMatches(row, code: code)
        switch try applyCode(db, record: record, channel: channel, matches: matches, now: now) {
        case .verified(_, let charged):
            try charged()
            return .verified
        case .done(let updated):
            return updated.status(at: now) == .verified ? .verified : .tooManyAttempts
        case .refused:
            // A wrong code (its attempt is kept), or one not yet handed to delivery.
            return .invalid
        }
    }
}

/// A sign-in code's check whose lookup was sent: ``apply()`` decides it (see
/// ``VerificationEngine/sendInternalCodeCheck(_:application:channel:destination:code:now:)``).
public struct PendingInternalCodeCheck {
    private let decide: () throws -> InternalCodeCheck

    init(_ decide: @escaping () throws -> InternalCodeCheck) {
        self.decide = decide
    }

    /// Reads the lookup, checks the code and counts the attempt, in the caller's transaction.
    public func apply() throws -> InternalCodeCheck {
        try decide()
    }
}
