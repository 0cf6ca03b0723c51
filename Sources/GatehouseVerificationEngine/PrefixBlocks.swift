import Foundation
import GatehouseCore
import GatehouseDatabase

/// A prefix the SMS-pumping guard (or an operator) holds codes back from: on one
/// application, or (an operator's pin) on every application of the tenant, present and future.
public struct PrefixBlock: Sendable, Equatable {
    /// Nil for a tenant-wide pin.
    public let applicationId: String?
    public let applicationName: String?
    /// Country code and destination code digits, e.g. "447400" (``PhoneNumber/prefix``); an
    /// operator's may be shorter ("44" holds every UK number).
    public let prefix: String
    /// ISO code of the numbers it was seen on; nil for an operator's block.
    public let country: String?
    /// `conversion` (blocked by the guard) or `operator` (pinned by hand).
    public let reason: String
    /// Codes sent and verified in the hour that decided, and the application's baseline then.
    public let sent: Int
    public let verified: Int
    public let baseline: Double?
    public let blockedAt: Date
    /// Nil for a pinned block, which lasts until it is lifted.
    public let blockedUntil: Date?
    public let liftedAt: Date?
    /// Holding codes back when it was read.
    public let active: Bool

    public var pinned: Bool { blockedUntil == nil }

    init(row: Row, now: Date) throws {
        applicationId = try row.get("application_id")
        applicationName = try row.get("name")
        prefix = try row.get("prefix")
        country = try row.get("country")
        reason = try row.get("reason")
        sent = try row.get("sent")
        verified = try row.get("verified")
        baseline = try row.get("baseline_permille", as: Int?.self).map { Double($0) / 1000 }
        blockedAt = try row.get("blocked_at")
        blockedUntil = try row.get("blocked_until")
        liftedAt = try row.get("lifted_at")
        active = liftedAt == nil && blockedUntil.map { $0 > now } ?? true
    }

    /// A tenant-wide pin.
    init(pin row: Row) throws {
        applicationId = nil
        applicationName = nil
        prefix = try row.get("prefix")
        country = nil
        reason = "operator"
        sent = 0
        verified = 0
        baseline = nil
        blockedAt = try row.get("pinned_at")
        blockedUntil = nil
        liftedAt = nil
        active = true
    }
}

/// A prefix's or country's codes in the last hour, for the operator's view.
public struct ConversionLine: Sendable, Equatable {
    /// `prefix` or `country`.
    public let scope: String
    public let value: String
    public let sent: Int
    public let verified: Int
}

extension VerificationEngine {
    private static let blockColumns = """
        SELECT b.*, a.name FROM verification_prefix_blocks b JOIN otp_applications a ON a.id = b.application_id WHERE a.tenant_id = ?
        """

    /// Every block of the tenant: its pins, then its applications' (sign-in's own included),
    /// active ones first.
    public func prefixBlocks(tenantID: String) async throws -> [PrefixBlock] {
        let now = self.now
        let (pins, blocks) = try await database.read { db in
            (
                try db.query("SELECT * FROM verification_tenant_prefix_pins WHERE tenant_id = ? ORDER BY prefix", tenantID).map(PrefixBlock.init(pin:)),
                try db.query(Self.blockColumns + " ORDER BY b.blocked_at DESC, b.prefix", tenantID).map { try PrefixBlock(row: $0, now: now) }
            )
        }
        return pins + blocks.filter(\.active) + blocks.filter { !$0.active }
    }

    /// Blocks `prefix` until lifted: on one application, or (nil) on every application of the
    /// tenant, those made later included. Returns the block.
    public func pinPrefixBlock(tenantID: String, applicationID: String?, prefix raw: String) async throws -> PrefixBlock {
        let prefix = try Self.validPrefix(raw)
        let now = self.now
        let pinned = try await database.writeChanging { db -> (block: PrefixBlock, new: Bool) in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            guard let applicationID else {
                let added = try db.execute(
                    "INSERT INTO verification_tenant_prefix_pins (tenant_id, prefix, pinned_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id, prefix) DO NOTHING",
                    tenantID, prefix, now)
                let pin = try PrefixBlock(pin: db.queryOne("SELECT * FROM verification_tenant_prefix_pins WHERE tenant_id = ? AND prefix = ?", tenantID, prefix)!)
                // Pinned before: nothing to keep (and nothing joined to it, such as an audit row).
                if added == 0 { throw NothingChanged((block: pin, new: false)) }
                return (pin, true)
            }
            guard try db.queryOne("SELECT id FROM otp_applications WHERE id = ? AND tenant_id = ?", applicationID, tenantID) != nil else {
                throw CoreError.notFound(.application)
            }
            // A pin already in place is left as it is (and not counted again). The upsert
            // decides: duplicates at once wait on the row and then find it pinned.
            let added = try db.execute(
                """
                INSERT INTO verification_prefix_blocks (application_id, prefix, country, reason, sent, verified, baseline_permille,
                  blocked_at, blocked_until, lifted_at)
                VALUES (?, ?, NULL, 'operator', 0, 0, NULL, ?, NULL, NULL)
                ON CONFLICT (application_id, prefix) DO UPDATE SET reason = 'operator', blocked_at = excluded.blocked_at,
                  blocked_until = NULL, lifted_at = NULL
                WHERE verification_prefix_blocks.blocked_until IS NOT NULL OR verification_prefix_blocks.lifted_at IS NOT NULL
                """, applicationID, prefix, now)
            let block = try PrefixBlock(row: db.queryOne(Self.blockColumns + " AND b.application_id = ? AND b.prefix = ?", tenantID, applicationID, prefix)!, now: now)
            if added == 0 { throw NothingChanged((block: block, new: false)) }
            return (block, true)
        }
        guard pinned.new else { return pinned.block }
        prefixBlocksImposed.increment(["reason": "operator"])
        // An operator's prefix may be long enough to name few numbers: masked like one.
        environment.logger.warning("prefix blocked by an operator", ["tenant": .plain(tenantID), "prefix": .init("+" + prefix)])
        return pinned.block
    }

    /// Lifts the blocks of `prefix` that hold now: on one application, or (nil) the tenant's
    /// pin and every application's. For an hour afterwards the guard does not block it again.
    public func liftPrefixBlock(tenantID: String, applicationID: String?, prefix raw: String) async throws {
        let prefix = try Self.validPrefix(raw)
        let now = self.now
        _ = try await database.write { db -> Int in
            var sql = """
                UPDATE verification_prefix_blocks SET lifted_at = ?
                WHERE prefix = ? AND lifted_at IS NULL AND (blocked_until IS NULL OR blocked_until > ?)
                  AND application_id IN (SELECT id FROM otp_applications WHERE tenant_id = ?)
                """
            var arguments: [SQLValue] = [now.sqlValue, .text(prefix), now.sqlValue, .text(tenantID)]
            var count = 0
            if let applicationID {
                sql += " AND application_id = ?"
                arguments.append(.text(applicationID))
            } else {
                count += try db.execute("DELETE FROM verification_tenant_prefix_pins WHERE tenant_id = ? AND prefix = ?", tenantID, prefix)
            }
            count += try db.execute(sql, arguments)
            // Refused inside the transaction: nothing joined to it is written for a lift that lifted nothing.
            guard count > 0 else { throw CoreError.notFound(.prefixBlock) }
            return count
        }
        environment.logger.info("prefix block lifted", ["tenant": .plain(tenantID), "prefix": .init("+" + prefix)])
    }

    /// The application's codes per prefix and country over the last hour (most sent first),
    /// and its baseline conversion: what the guard compares.
    public func conversion(tenantID: String, applicationID: String) async throws -> (baseline: Double, lines: [ConversionLine]) {
        // The counts this node holds are written first; other nodes' follow within a dispatcher pass.
        await flushCountsBeforeReading()
        let now = self.now
        let rules = settings.pumping
        return try await database.read { db in
            guard try db.queryOne("SELECT id FROM otp_applications WHERE id = ? AND tenant_id = ?", applicationID, tenantID) != nil else {
                throw CoreError.notFound(.application)
            }
            let lines = try ConversionCounts.lastHour(db, applicationID: applicationID, now: now).map { key, window in
                ConversionLine(scope: key.scope, value: key.value, sent: Int(window.sent.rounded()), verified: Int(window.verified.rounded()))
            }
            let history = try ConversionCounts.before(
                db, applicationID: applicationID, scope: "country", value: nil, hour: ConversionCounts.hourStart(now), days: rules.baselineDays)
            let baseline = history.sent < Double(rules.baselineMinimum) ? rules.defaultBaseline : history.verified / history.sent
            return (baseline, lines.filter { $0.sent > 0 }.sorted { ($0.scope, -$0.sent, $0.value) < ($1.scope, -$1.sent, $1.value) })
        }
    }

    /// `+447400` or `447400`: a country code and the digits after it, 1 to 9 in all (`+1`
    /// holds North America; longer would name a few numbers, or one, rather than a range).
    static func validPrefix(_ raw: String) throws -> String {
        let digits = raw.hasPrefix("+") ? String(raw.dropFirst()) : raw
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy({ (48...57).contains($0) }), !digits.hasPrefix("0") else {
            throw CoreError.invalid("prefix", .phonePrefix)
        }
        return digits
    }
}
