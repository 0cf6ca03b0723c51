import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

extension VerificationEngine {
    /// Starts a verification (§6): validate, limits, balance, the request callback, then
    /// supersede and create. A denial is a result, not an error.
    public func start(_ request: StartRequest, caller: VerificationCaller) async throws -> VerificationRecord {
        let app = caller.application
        let valid = try ValidStart.validate(request)
        if valid.autofill == "domain", app.smsDomain == nil { throw VerificationFailure(.smsDomainNotConfigured) }
        let now = self.now
        let fee = app.fee(for: valid.channel)
        try await checkLimits(app: app, caller: caller, destination: valid.destination, fee: fee, now: now)
        let id = environment.ids.next().lowercased

        // An unknown template group is a validation error: settle it before the callback.
        let choice = try await database.read { db in
            try TemplateChoice.resolve(db, applicationID: app.id, channel: valid.channel, languages: valid.languages, group: valid.templateGroup)
        }
        let decision = try await decide(valid, id: id, caller: caller)
        let code = environment.random.numericCode(digits: app.codeLength)
        let record = try await persist(app: app, valid: valid, decision: decision, choice: choice, id: id, code: code, fee: fee, now: now)
        if decision == nil { dispatchInBackground(record, code: code, appHash: valid.appHash) }
        return record
    }

    /// Creates the row under the application's lock: supersedes the live verification of the
    /// number (unless this start sends nothing), counts volume, stores the hashed code.
    func persist(
        app: OTPApplication, valid: ValidStart, decision: (status: VerificationStatus, outcome: VerificationOutcome)?,
        choice: TemplateChoice, id: String, code: String, fee: Int64, now: Date
    ) async throws -> VerificationRecord {
        try await database.write { db -> VerificationRecord in
            // Starts of one application queue on its row, so "one live verification per
            // number" and the cooldown hold across nodes on PostgreSQL too.
            _ = try db.query("SELECT id FROM otp_applications WHERE id = ?" + db.dialect.forUpdate, [.text(app.id)])
            if decision == nil {
                try Self.checkCooldown(db, app: app, destination: valid.destination, now: now)
                try db.execute(
                    """
                    UPDATE verifications SET status = 'failed', error_code = 'superseded', finished_at = ?
                    WHERE application_id = ? AND destination = ? AND status = 'pending' AND expires_at > ?
                    """,
                    now, app.id, valid.destination, now)
                try self.countVolume(db, app: app, now: now)
            }
            let autofill = Self.autofill(valid, app: app)
            try db.execute(
                """
                INSERT INTO verifications (id, tenant_id, application_id, destination, channel, status, error_code, code_hash,
                  code_length, attempts, max_attempts, fee_micros, language, template, template_group, template_group_used,
                  template_fallback_reason, autofill_type, autofill_value, interception_timeout, created_at, expires_at,
                  dispatched_at, dispatch_claimed_at, finished_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
                """,
                [
                    .text(id), .text(app.tenantId), .text(app.id), .text(valid.destination), .text(valid.channel.rawValue),
                    .text((decision?.status ?? .pending).rawValue), decision.map { .text($0.outcome.rawValue) } ?? .null,
                    decision == nil ? .blob(Self.codeHash(id: id, code: code)) : .null, .integer(Int64(app.codeLength)),
                    .integer(Int64(app.maxAttempts)), .integer(fee), .text(choice.language), .text(choice.body),
                    choice.group.sqlValue, .boolean(choice.groupUsed), choice.fallbackReason.sqlValue,
                    autofill?.type.sqlValue ?? .null, autofill?.value.sqlValue ?? .null,
                    .integer(Int64(self.settings.interceptionTimeout)), now.sqlValue,
                    now.addingTimeInterval(TimeInterval(app.lifetimeSeconds)).sqlValue,
                    decision == nil ? now.sqlValue : .null, decision == nil ? .null : now.sqlValue,
                ])
            return try VerificationRecord(row: try db.queryOne("SELECT * FROM verifications WHERE id = ?", id)!)
        }
    }

    /// Renders and hands the code to delivery without holding up the response.
    func dispatchInBackground(_ record: VerificationRecord, code: String, appHash: String?) {
        let message = render(record, code: code, appHash: appHash)
        Task { await self.dispatch(record, message: message) }
    }

    /// 429s and 402 in the order of §6: cooldown, volume, public per account, balance.
    func checkLimits(app: OTPApplication, caller: VerificationCaller, destination: String, fee: Int64, now: Date) async throws {
        let window = settings.window
        let (publicLimit, limiter) = (settings.publicPerAccount, environment.rateLimiter)
        try await database.write { db in
            try Self.checkCooldown(db, app: app, destination: destination, now: now)
            try Self.checkVolume(db, app: app, now: now)
            if caller.mode == .public {
                let hits = limiter.hit("verify:public:\(app.tenantId)", now: now, window: window)
                if hits.count > publicLimit { throw VerificationFailure(.rateLimitPublicPerAccount, retryAfter: hits.retryAfter) }
            }
            let balance: Int64 =
                try db.queryOne("SELECT balance_micros FROM verification_accounts WHERE tenant_id = ?", app.tenantId)?.get("balance_micros") ?? 0
            if balance < fee { throw VerificationFailure(.balanceInsufficient) }
        }
    }

    /// 429 while the last start that sent something to this number is younger than the
    /// application's cooldown; denied and unreachable starts do not count.
    static func checkCooldown(_ db: any DatabaseConnection, app: OTPApplication, destination: String, now: Date) throws {
        guard app.cooldownSeconds > 0,
            let last = try db.queryOne(
                """
                SELECT created_at FROM verifications WHERE application_id = ? AND destination = ? AND status <> 'denied'
                  AND (error_code IS NULL OR error_code <> 'destination_not_supported_for_channel')
                ORDER BY created_at DESC LIMIT 1
                """, app.id, destination)
        else { return }
        let started: Date = try last.get("created_at")
        let elapsed = now.timeIntervalSince(started)
        if elapsed < Double(app.cooldownSeconds) {
            throw VerificationFailure(.destinationInCooldown, retryAfter: max(1, Int((Double(app.cooldownSeconds) - elapsed).rounded(.up))))
        }
    }

    /// Why a start will not send a code, or `nil` when it will.
    private func decide(_ valid: ValidStart, id: String, caller: VerificationCaller) async throws
        -> (status: VerificationStatus, outcome: VerificationOutcome)?
    {
        let app = caller.application
        if app.paused { return (.denied, .applicationPaused) }
        let number = try? PhoneNumber.parseDigits(valid.destination)
        if let region = number?.region, app.disabledCountries.contains(region) { return (.denied, .destinationCountryDisabled) }
        if let number, !Self.reachable(number, by: valid.channel) { return (.failed, .destinationNotSupportedForChannel) }
        switch (caller.mode, app.callbackURL) {
        case (.application, _), (.basic, nil): return nil
        case (.public, nil): return (.denied, .deniedMissingCallbackURL)
        case (_, let url?):
            switch await callback(url: url, app: app, id: id, valid: valid) {
            case .allow: return nil
            case .deny: return (.denied, .deniedByCallback)
            case .unusable: return (.denied, .deniedInvalidCallbackResponse)
            }
        }
    }

    /// SMS needs a line that takes texts; no channel reaches premium or shared-cost ranges.
    static func reachable(_ number: PhoneNumber, by channel: VerificationChannel) -> Bool {
        let blocked: Set<PhoneLineType> = [.premiumRate, .sharedCost]
        let noSMS: Set<PhoneLineType> = [.fixedLine, .tollFree, .voicemail, .uan, .pager]
        if blocked.contains(number.lineType) { return false }
        return channel == .callout || !noSMS.contains(number.lineType)
    }

    static func autofill(_ valid: ValidStart, app: OTPApplication) -> (type: String, value: String)? {
        guard valid.channel == .sms else { return nil }
        if let hash = valid.appHash { return ("app_hash", hash) }
        if valid.autofill != "none", let domain = app.smsDomain { return ("domain", domain) }
        return nil
    }

    static func codeHash(id: String, code: String) -> [UInt8] {
        SHA256.hash(Data("\(id):\(code)".utf8))
    }
}
