import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// Which verification a read or report addresses.
public enum VerificationTarget: Sendable, Equatable {
    case id(String)
    /// Digits only; resolves to the live verification for the number if there is one
    /// (seed 001), otherwise to the newest, whatever its status.
    case number(String)
}

extension VerificationEngine {
    /// The verification, scoped to the caller's application; another application's id is
    /// `not_found`, exactly like an unknown one.
    public func verification(_ target: VerificationTarget, caller: VerificationCaller) async throws -> VerificationRecord {
        let appID = caller.application.id
        let now = self.now
        let found = try await database.read { db in try Self.find(db, target, applicationID: appID, now: now, lock: false) }
        guard let found else { throw VerificationFailure(.notFound) }
        return found
    }

    /// Reports a code (§7). A wrong code uses an attempt and is a 422 whose attempt is
    /// kept; the report after the last allowed wrong code fails the verification with 200.
    public func report(_ target: VerificationTarget, method: String?, code: String?, caller: VerificationCaller) async throws
        -> VerificationRecord
    {
        var errors: [VerificationErrorCode] = []
        var channel: VerificationChannel?
        if let method, !method.isEmpty {
            channel = VerificationChannel(deliveryMethod: method)
            if channel == nil { errors.append(.deliveryMethodUnknown) }
        } else {
            errors.append(.deliveryMethodBlank)
        }
        if code?.isEmpty ?? true { errors.append(.codeBlank) }
        guard errors.isEmpty, let channel, let code else { throw VerificationFailure(errors) }

        let app = caller.application
        let now = self.now
        let outcome = try await database.write { db -> ReportOutcome in
            guard let row = try Self.findRow(db, target, applicationID: app.id, now: now, lock: true) else { return .refused(.notFound) }
            let record = try VerificationRecord(row: row)
            let matches = Self.codeMatches(row, code: code)
            switch record.status(at: now) {
            case .verified:
                return matches ? .done(record) : .refused(.alreadyVerified)
            case .failed, .denied, .expired:
                return .done(record)
            case .pending:
                break
            }
            switch try self.applyCode(db, record: record, channel: channel, matches: matches, now: now) {
            case .done(let record): return .done(record)
            case .refused(let code): return .refused(code)
            case .verified(let updated, let charged):
                let verified = try VerificationRecord(row: updated.rows()[0])
                try charged()
                return .done(verified)
            }
        }
        switch outcome {
        case .done(let record): return record
        case .refused(let code): throw VerificationFailure(code)
        }
    }

    enum ReportOutcome { case done(VerificationRecord), refused(VerificationErrorCode) }

    /// What a code did to a pending verification.
    enum AppliedCode {
        case done(VerificationRecord)
        case refused(VerificationErrorCode)
        /// Verified: the updated row and the charge's check are read when wanted, so a caller
        /// that only needs to know sends its next statements in the same round trip.
        case verified(updated: SentStatement, charged: () throws -> Void)
    }

    /// A code reported against a pending verification: checks the method and readiness,
    /// uses an attempt when wrong, fails it once attempts are exhausted, verifies (and bills)
    /// when right. Shared by the DIDWW API and Gatehouse's own sign-in codes.
    func applyCode(_ db: any DatabaseConnection, record: VerificationRecord, channel: VerificationChannel, matches: Bool, now: Date)
        throws -> AppliedCode
    {
        if record.channel != channel { return .refused(.deliveryMethodMismatch) }
        if record.dispatchedAt == nil { return .refused(.notReadyToReport) }
        if record.attempts >= record.maxAttempts {
            try db.send(
                "UPDATE verifications SET status = 'failed', error_code = ?, finished_at = ?, code_hash = NULL WHERE id = ?",
                VerificationOutcome.tooManyAttempts.rawValue, now, record.id)
            return .done(try Self.reload(db, record.id))
        }
        guard matches else {
            try db.send("UPDATE verifications SET attempts = attempts + 1 WHERE id = ?", record.id)
            return .refused(.codeInvalid)
        }
        // The verification and its charge are sent; nothing here waits for them. Its counts
        // are this node's once the transaction commits.
        let updated = try db.send(
            "UPDATE verifications SET status = 'verified', finished_at = ? WHERE id = ? RETURNING *", [now.sqlValue, .text(record.id)])
        countVerified(db, record, now: now)
        // The quoted fee is billed only now, on success.
        return .verified(updated: updated, charged: try Self.bill(db, record))
    }

    /// Whether `code` is the one whose hash the verification's row holds (read with the row,
    /// so that checking costs no statement of its own).
    static func codeMatches(_ row: Row, code: String) -> Bool {
        guard let id: String = try? row.get("id"), let hash: [UInt8] = try? row.get("code_hash") else { return false }
        return constantTimeEquals(codeHash(id: id, code: code), hash)
    }

    static func find(_ db: any DatabaseConnection, _ target: VerificationTarget, applicationID: String, now: Date, lock: Bool) throws
        -> VerificationRecord?
    {
        try findRow(db, target, applicationID: applicationID, now: now, lock: lock).map(VerificationRecord.init(row:))
    }

    /// The row ``find(_:_:applicationID:now:lock:)`` reads, code hash included.
    static func findRow(_ db: any DatabaseConnection, _ target: VerificationTarget, applicationID: String, now: Date, lock: Bool) throws
        -> Row?
    {
        try sendRow(db, target, applicationID: applicationID, now: now, lock: lock).row()
    }

    /// The lookups of ``findRow(_:_:applicationID:now:lock:)``, sent without waiting, so that
    /// they travel with the caller's own reads.
    static func sendRow(_ db: any DatabaseConnection, _ target: VerificationTarget, applicationID: String, now: Date, lock: Bool) throws
        -> SentRow
    {
        let suffix = lock ? db.dialect.forUpdate : ""
        switch target {
        case .id(let id):
            return SentRow(preferred: try db.send(rowByID + suffix, id), ownedBy: applicationID)
        case .number(let digits):
            // A denied or unreachable start is newer than the live verification it left alone;
            // the number still means the live one, and the newest only when none is live.
            let live = try db.send(
                """
                SELECT * FROM verifications WHERE application_id = ? AND destination = ? AND status = 'pending' AND expires_at > ?
                ORDER BY created_at DESC, id DESC LIMIT 1
                """ + suffix, applicationID, digits, now)
            let sendNewest = {
                try db.send(
                    """
                    SELECT * FROM verifications WHERE application_id = ? AND destination = ?
                    ORDER BY created_at DESC, id DESC LIMIT 1
                    """ + suffix, applicationID, digits)
            }
            // A read sends both at once (one round trip). A write (a report, a sign-in code)
            // almost always finds the live one, so it asks for the newest only when there is
            // none: a statement less for every code checked, a round trip more for a number
            // with no live code.
            if lock { return SentRow(preferred: live, otherwise: sendNewest) }
            let newest = try sendNewest()
            return SentRow(preferred: live, otherwise: { newest })
        }
    }

    /// By the id alone, the application checked on the row (``SentRow``): with `AND
    /// application_id = ?`, PostgreSQL's generic plan for a table without statistics walked the
    /// application's verifications by number and filtered on the id, every one of them for each
    /// status read (`VerificationLookupPlanTests`).
    static let rowByID = "SELECT * FROM verifications WHERE id = ?"

    /// A verification's row asked for and not yet read: the preferred lookup's row, else the
    /// other's; with `ownedBy`, only a row of that application (another's is none). Read once.
    struct SentRow {
        let preferred: SentStatement
        /// The other lookup, sent already or sent when called.
        var otherwise: (() throws -> SentStatement)?
        var ownedBy: String?

        init(preferred: SentStatement, otherwise: (() throws -> SentStatement)? = nil, ownedBy: String? = nil) {
            self.preferred = preferred
            self.otherwise = otherwise
            self.ownedBy = ownedBy
        }

        func row() throws -> Row? {
            guard let row = try preferred.rows().first ?? otherwise?().rows().first else { return nil }
            if let ownedBy, try row.get("application_id", as: String.self) != ownedBy { return nil }
            return row
        }
    }

    static func reload(_ db: any DatabaseConnection, _ id: String) throws -> VerificationRecord {
        try VerificationRecord(row: try db.queryOne("SELECT * FROM verifications WHERE id = ?", id)!)
    }

    /// The current time, for readers that render records.
    public var currentTime: Date { now }
}
