import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// Why a start sends no code.
typealias StartDecision = (status: VerificationStatus, outcome: VerificationOutcome)

extension VerificationEngine {
    /// Starts a verification (§6): validate, limits, balance, the request callback, then
    /// supersede and create. A denial is a result, not an error.
    ///
    /// Everything is decided and written in one transaction: the limits, the new row, the
    /// superseded one and the queued delivery, which a `DeliveryDispatcher` sends after the
    /// commit. Only the request callback, a call to the customer's backend, happens before
    /// it, after a read that settles what would refuse the start anyway.
    public func start(_ request: StartRequest, caller: VerificationCaller) async throws -> VerificationRecord {
        let app = caller.application
        let valid = try ValidStart.validate(request)
        if valid.autofill == "domain", app.smsDomain == nil { throw VerificationFailure(.smsDomainNotConfigured) }
        let now = self.now
        let fee = app.fee(for: valid.channel)
        let id = environment.ids.next().lowercased
        var decision = Self.decide(valid, caller: caller)
        if decision == nil, caller.mode != .application, let url = app.callbackURL {
            try await database.read { db in
                let templates = try TemplateChoice.send(
                    db, applicationID: app.id, channel: valid.channel, languages: valid.languages, group: valid.templateGroup,
                    testNumber: .init(tenantID: app.tenantId, destination: valid.destination))
                let range = try templates.testCode() == nil ? PhoneRange(valid) : nil
                try self.checkLimits(db, caller: caller, destination: valid.destination, range: range, fee: fee, now: now, counting: false)
                _ = try templates.choice()
            }
            switch await callback(url: url, app: app, id: id, valid: valid) {
            case .allow: decision = nil
            case .deny: decision = (.denied, .deniedByCallback)
            case .unusable(let reason):
                decision = (.denied, .deniedInvalidCallbackResponse)
                try await noteCallbackFailure(app, reason: reason, now: now)
            }
        }
        let code = environment.random.numericCode(digits: app.codeLength)
        let record = try await database.write { [decision] db in
            try self.create(db, caller: caller, valid: valid, decision: decision, id: id, code: code, fee: fee, now: now)
        }
        if decision == nil { doorbell.ring() }
        return record
    }

    /// Decides the limits (counting them), supersedes the live verification of the number
    /// (unless this start sends nothing), stores the hashed code and queues its delivery, all
    /// inside the caller's transaction. On PostgreSQL the writes nobody reads back go as
    /// `WITH` clauses of the row's insert (every statement a start saves is about 3% of it),
    /// and the insert with the `COMMIT`: a start is two round trips.
    func create(
        _ db: any DatabaseConnection, caller: VerificationCaller, valid: ValidStart, decision: StartDecision?, id: String, code generated: String,
        fee quoted: Int64, now: Date
    ) throws -> VerificationRecord {
        let app = caller.application
        // Everything the start is judged on is sent at once (one round trip on PostgreSQL): the
        // templates with the test number, the number's lock and, behind it, the limits' reads
        // and the pumping guard's read of the prefix's last hour.
        let templates = try TemplateChoice.send(
            db, applicationID: app.id, channel: valid.channel, languages: valid.languages, group: valid.templateGroup,
            testNumber: decision == nil ? .init(tenantID: app.tenantId, destination: valid.destination) : nil)
        let phoneRange = decision == nil ? PhoneRange(valid) : nil
        var reads = try Self.sendLimitReads(db, app: app, destination: valid.destination, range: phoneRange, now: now, locking: true)
        let lastHour = decision == nil ? try sendWatch(db, app: app, range: phoneRange, now: now) : nil
        // A test number's start sends nothing and costs nothing; its fixed code verifies it.
        let testCode = countedUse(of: try templates.testCode(), tenantID: app.tenantId, destination: valid.destination)
        let code = testCode ?? generated
        let fee = testCode == nil ? quoted : 0
        // The phone range the pumping guard counts: codes really sent to phones. A test number
        // is in none, so its limits are read again without one.
        let range = testCode == nil ? phoneRange : nil
        if range == nil, phoneRange != nil {
            reads = try Self.sendLimitReads(db, app: app, destination: valid.destination, range: nil, now: now, locking: false)
        }
        try judgeLimits(reads, caller: caller, fee: fee, now: now, counting: true)
        let choice = try templates.choice()
        if decision == nil, let range, let blocks = reads.block, let lastHour {
            try watchConversion(db, app: app, range: range, blocks: blocks, lastHour: lastHour, now: now)
        }
        // What the start writes besides its row, which nobody reads back: the superseded row,
        // the capped periods' slots (taken by now) and the queued delivery go with the insert
        // (one statement on PostgreSQL); the counts that decide nothing go to this node's
        // memory once it commits.
        var writes: [PendingWrite] = []
        if decision == nil {
            writes.append(PendingWrite(
                """
                UPDATE verifications SET status = 'failed', error_code = 'superseded', finished_at = ?
                WHERE application_id = ? AND destination = ? AND status = 'pending' AND expires_at > ?
                """,
                [now.sqlValue, .text(app.id), .text(valid.destination), now.sqlValue]))
            var counts = HeldCounts(volume: try countVolume(db, app: app, range: range, now: now))
            if let range { Self.countConversion(&counts, app: app, range: range, now: now) }
            db.afterCommit { [pendingCounts] in pendingCounts.add(counts) }
            if testCode == nil {
                writes.append(Self.delivery(verificationID: id, tenantID: app.tenantId, code: code, appHash: valid.appHash, now: now))
            }
        }
        let autofill = Self.autofill(valid, app: app)
        let values: [SQLValue] = [
            .text(id), .text(app.tenantId), .text(app.id), .text(valid.destination), .text(valid.channel.rawValue),
            .text((decision?.status ?? .pending).rawValue), decision.map { .text($0.outcome.rawValue) } ?? .null,
            decision == nil ? .blob(Self.codeHash(id: id, code: code)) : .null, .integer(Int64(code.count)), .integer(0),
            .integer(Int64(app.maxAttempts)), .integer(fee), .text(choice.language), .text(valid.template ?? choice.body),
            choice.group.sqlValue, .boolean(choice.groupUsed), choice.fallbackReason.sqlValue,
            autofill?.type.sqlValue ?? .null, autofill?.value.sqlValue ?? .null,
            .integer(Int64(settings.interceptionTimeout)), now.sqlValue,
            now.addingTimeInterval(TimeInterval(app.lifetimeSeconds)).sqlValue,
            testCode != nil ? now.sqlValue : .null, decision == nil && testCode == nil ? now.sqlValue : .null,
            decision == nil ? .null : now.sqlValue, range?.prefix.sqlValue ?? .null, range?.country.sqlValue ?? .null,
        ]
        // Nobody waits for the insert's answer: the row is what was written, so on PostgreSQL
        // the insert goes with the `COMMIT`, and an error of it is the transaction's.
        try db.send(Self.insertSQL, values, carrying: writes)
        return try VerificationRecord(row: Row(columns: Self.insertedColumns + ["provider", "provider_message_id"], values: values + [.null, .null]))
    }

    /// The columns a start writes; the others (the provider's, the delivery's) start empty.
    static let insertedColumns = [
        "id", "tenant_id", "application_id", "destination", "channel", "status", "error_code", "code_hash", "code_length", "attempts",
        "max_attempts", "fee_micros", "language", "template", "template_group", "template_group_used", "template_fallback_reason",
        "autofill_type", "autofill_value", "interception_timeout", "created_at", "expires_at", "dispatched_at", "dispatch_claimed_at",
        "finished_at", "destination_prefix", "destination_country",
    ]

    static let insertSQL = """
        INSERT INTO verifications (\(insertedColumns.joined(separator: ", ")))
        VALUES (\(insertedColumns.map { _ in "?" }.joined(separator: ", ")))
        """

    /// Why a start will not send a code, as far as the application alone decides; `nil`
    /// when it will, or when the request callback decides.
    static func decide(_ valid: ValidStart, caller: VerificationCaller) -> StartDecision? {
        let app = caller.application
        if app.paused { return (.denied, .applicationPaused) }
        let number = valid.number
        if let region = number?.region, app.disabledCountries.contains(region) { return (.denied, .destinationCountryDisabled) }
        if let number, !reachable(number, by: valid.channel) { return (.failed, .destinationNotSupportedForChannel) }
        if caller.mode == .public, app.callbackURL == nil { return (.denied, .deniedMissingCallbackURL) }
        return nil
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
