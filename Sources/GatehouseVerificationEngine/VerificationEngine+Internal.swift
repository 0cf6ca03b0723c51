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
    /// The tenant's internal application for `purpose`, made on first use.
    public func internalApplication(tenantID: String, purpose: String, policy: InternalCodePolicy) async throws -> OTPApplication {
        let appKey = "internal:\(purpose):\(tenantID)"
        if let existing = try await database.read({ db in
            try db.queryOne("SELECT * FROM otp_applications WHERE app_key = ?", appKey).map(OTPApplication.init(row:))
        }) {
            return existing
        }
        var settings = OTPApplicationSettings()
        settings.name = "Gatehouse \(purpose)"
        settings.minimumAuth = .application
        settings.codeLength = policy.codeLength
        settings.lifetimeSeconds = policy.lifetimeSeconds
        settings.maxAttempts = policy.attempts
        settings.cooldownSeconds = policy.resendSeconds
        settings.smsFee = "0"
        settings.calloutFee = "0"
        let id = environment.ids.next().lowercased
        let secret = environment.random.token(byteCount: 32)
        let values = try ApplicationValues.defaults.applying(settings)
        let now = self.now
        return try await database.write { db in
            try db.execute(
                """
                INSERT INTO otp_applications (id, tenant_id, name, app_key, secret, min_auth, callback_url, sms_domain,
                  code_length, lifetime_seconds, max_attempts, paused, disabled_countries, daily_limit, monthly_limit,
                  cooldown_seconds, fee_sms_micros, fee_callout_micros, created_at, internal_purpose)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (app_key) DO NOTHING
                """,
                [.text(id), .text(tenantID), .text(values.name), .text(appKey), .text(secret)] + values.columns
                    + [now.sqlValue, .text(purpose)])
            return try OTPApplication(row: try db.queryOne("SELECT * FROM otp_applications WHERE app_key = ?", appKey)!)
        }
    }

    /// Sends a code to a phone number (`sms`, digits) or an email address (`email`).
    /// A second code within the resend window is `destination_in_cooldown` with `Retry-After`.
    public func sendInternalCode(application app: OTPApplication, channel: VerificationChannel, destination: String) async throws {
        let valid = ValidStart(
            destination: destination, channel: channel, languages: [], appHash: nil, autofill: "none", templateGroup: nil, custom: nil)
        let now = self.now
        try await checkLimits(
            app: app, caller: VerificationCaller(application: app, mode: .application), destination: destination, fee: 0, now: now)
        let choice = try await database.read { db in
            try TemplateChoice.resolve(db, applicationID: app.id, channel: channel, languages: [], group: nil)
        }
        let id = environment.ids.next().lowercased
        let code = environment.random.numericCode(digits: app.codeLength)
        let record = try await persist(app: app, valid: valid, decision: nil, choice: choice, id: id, code: code, fee: 0, now: now)
        dispatchInBackground(record, code: code, appHash: nil)
    }

    /// Checks a code against the live code of a destination. A code works once.
    public func checkInternalCode(application app: OTPApplication, channel: VerificationChannel, destination: String, code: String)
        async throws -> InternalCodeCheck
    {
        let now = self.now
        return try await database.write { db in
            try Self.checkInternalCode(db, application: app, channel: channel, destination: destination, code: code, now: now)
        }
    }

    /// The same check inside a transaction the caller holds, so that a limit of its own
    /// (the hourly wrong-code cap of sign-in) is decided and counted in the transaction
    /// that checks the code.
    public static func checkInternalCode(
        _ db: any DatabaseConnection, application app: OTPApplication, channel: VerificationChannel, destination: String, code: String,
        now: Date
    ) throws -> InternalCodeCheck {
        guard let record = try find(db, .number(destination), applicationID: app.id, now: now, lock: true), record.channel == channel
        else { return .invalid }
        switch record.status(at: now) {
        case .expired: return .expired
        case .failed where record.outcome(at: now) == .tooManyAttempts: return .tooManyAttempts
        case .verified, .failed, .denied: return .invalid
        case .pending: break
        }
        let matches = try codeMatches(db, record: record, code: code)
        switch try applyCode(db, record: record, channel: channel, matches: matches, now: now) {
        case .done(let updated):
            return updated.status(at: now) == .verified ? .verified : .tooManyAttempts
        case .refused:
            // A wrong code (its attempt is kept), or one not yet handed to delivery.
            return .invalid
        }
    }
}
