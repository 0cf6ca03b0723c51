import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import Synchronization

/// Phone verification: OTP applications, starting, checking and reporting codes, limits,
/// the request callback and delivery. It knows nothing of HTTP; the DIDWW dialect calls it.
public final class VerificationEngine: Sendable {
    let environment: Environment
    let delivery: any MessageDelivery
    public let settings: VerificationSettings
    /// The name application lookups by app key are cached under (see ``CacheInvalidations``).
    public static let applicationCacheName = "otp-applications"
    /// Applications by app key, so authenticating a request is no query while its key is hot.
    let applicationCache: NodeCache<OTPApplication>
    /// The internal applications of Gatehouse's own sign-in codes, by app key: read inside a
    /// sign-in's write transaction, and never changed once created. Apart from
    /// `applicationCache`, which serves only applications a client may present.
    let internalApplications: NodeCache<OTPApplication>
    /// Failed authentications per address in the current window, as last read or written
    /// here; the database row stays the truth that survives a restart.
    let failedAuthCache: NodeCache<WindowCount>
    /// Rung after a start queues a delivery, so this node's dispatcher sends it at once.
    let doorbell = Doorbell()
    /// Starts to test numbers, by tenant, for `/metrics`.
    public let testNumberUses = Counters(name: "gatehouse_verification_test_number_uses_total", help: "Starts to a tenant's test numbers (nothing sent).")
    /// Providers' delivery receipts, by provider and outcome, for `/metrics`.
    public let deliveryReceipts = Counters(name: "gatehouse_delivery_receipts_total", help: "Delivery receipts from SMS and voice providers, by outcome.")
    /// Prefixes blocked by the SMS-pumping guard (`conversion`) or an operator (`operator`), for `/metrics`.
    public let prefixBlocksImposed = Counters(name: "gatehouse_verification_prefix_blocks_total", help: "Prefixes blocked against SMS pumping, by reason.")
    /// Each application's conversion over the days before the last hour, per node for 10 minutes.
    let baselines: NodeCache<Baseline>
    /// Codes sent to a prefix over those days, by application, prefix and hour.
    let prefixHistories: NodeCache<Double>
    /// What starts counted without deciding anything by it, until ``flushCounts()`` writes it.
    let pendingCounts = PendingCounts()
    /// The row this node writes those counts to, above the capped shards: no other node
    /// writes it, but by a one-in-a-billion chance (which would cost a wait, never a count).
    let nodeShard: Int
    /// The flush in flight, if any: one at a time, so a flush returns only once everything
    /// held before it was called is written.
    let flushing = Mutex<Task<Void, any Error>?>(nil)

    public init(environment: Environment, delivery: any MessageDelivery, settings: VerificationSettings = VerificationSettings()) {
        precondition(settings.deliveryDeadline < settings.dispatchRetryAfter, "a send must be given up before its lease ends")
        self.environment = environment
        self.delivery = delivery
        self.settings = settings
        applicationCache = NodeCache(name: Self.applicationCacheName, clock: environment.clock)
        environment.invalidations.register(applicationCache)
        internalApplications = NodeCache(name: "otp-internal-applications", clock: environment.clock)
        failedAuthCache = NodeCache(name: "verify-failed-auth", clock: environment.clock)
        baselines = NodeCache(name: "verify-conversion-baselines", clock: environment.clock, lifetime: 600)
        prefixHistories = NodeCache(name: "verify-prefix-histories", clock: environment.clock, lifetime: 600)
        nodeShard = Self.volumeShards + Int(environment.random.uniform(below: 1 << 30))
    }

    /// Writes the counts this node holds (``PendingCounts``) in one transaction, and returns
    /// once everything held when it was called is written. The delivery dispatcher calls it on
    /// every pass, and the views that show the counts before reading them.
    public func flushCounts() async throws {
        // A flush in flight took what was held when it began, not what came since: it is
        // waited for, then the flush started after it (by this caller or another) takes the rest.
        if let running = flushing.withLock({ $0 }) { _ = try? await running.value }
        let flush = flushing.withLock { current in
            if let current { return current }
            let started = Task {
                // Cleared under the lock, which the caller starting it holds until it is set.
                defer { self.flushing.withLock { $0 = nil } }
                try await self.writeHeldCounts()
            }
            current = started
            return started
        }
        try await flush.value
    }

    private func writeHeldCounts() async throws {
        guard let tally = pendingCounts.take() else { return }
        do {
            let shard = nodeShard
            try await database.write { db in try db.send(tally.writes(shard: shard)) }
            pendingCounts.settle(committed: true)
        } catch let error as DatabaseError where error.kind == .connection {
            // The connection went down with the COMMIT perhaps sent: the batch may be written,
            // and counting it again could double it. Counts, not decisions: they are let go.
            pendingCounts.settle(committed: true)
            environment.logger.warning("verification counts lost with the connection", ["error": "\(error)"])
            throw error
        } catch {
            pendingCounts.settle(committed: false)
            throw error
        }
    }

    /// ``flushCounts()`` before a view reads the counts: a view still answers, with what is
    /// written, if the flush fails.
    func flushCountsBeforeReading() async {
        do {
            try await flushCounts()
        } catch {
            environment.logger.warning("verification counts not written yet", ["error": "\(error)"])
        }
    }

    var database: any Database { environment.database }
    var now: Date { environment.clock.now }

    /// Creates an application; the secret is returned this once.
    public func createApplication(tenantID: String, settings input: OTPApplicationSettings) async throws -> (OTPApplication, secret: String) {
        let id = environment.ids.next().lowercased
        let key = "vk_" + environment.random.token(byteCount: 12)
        let secret = environment.random.token(byteCount: 32)
        var values = try ApplicationValues.defaults.applying(input)
        values.name = try values.validName()
        let created = now
        let app = try await database.write { db -> OTPApplication in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else {
                throw CoreError.notFound(.tenant)
            }
            try db.execute(
                ApplicationValues.insertSQL(),
                [.text(id), .text(tenantID), .text(values.name), .text(key), .text(secret)] + values.columns + [created.sqlValue])
            try db.execute(
                "INSERT INTO verification_accounts (tenant_id, balance_micros) VALUES (?, 0) ON CONFLICT (tenant_id) DO NOTHING",
                tenantID)
            return try OTPApplication(row: try db.queryOne("SELECT * FROM otp_applications WHERE id = ?", id)!)
        }
        return (app, secret)
    }

    /// Changes an application's settings; fields left `nil` keep their value.
    public func updateApplication(tenantID: String, id: String, settings input: OTPApplicationSettings) async throws -> OTPApplication {
        let invalidations = environment.invalidations
        let updated = try await database.write { db in
            guard let row = try db.queryOne(
                "SELECT * FROM otp_applications WHERE id = ? AND tenant_id = ? AND internal_purpose IS NULL" + db.dialect.forUpdate, id, tenantID)
            else { throw CoreError.notFound(.application) }
            var values = try ApplicationValues(try OTPApplication(row: row)).applying(input)
            values.name = try values.validName()
            try db.execute(
                ApplicationValues.updateSQL,
                [.text(values.name)] + values.columns + [.text(id)])
            let updated = try OTPApplication(row: try db.queryOne("SELECT * FROM otp_applications WHERE id = ?", id)!)
            try invalidations.announce(db, cache: Self.applicationCacheName, key: updated.appKey)
            return updated
        }
        invalidations.drop(cache: Self.applicationCacheName, key: updated.appKey)
        return updated
    }

    public func applications(tenantID: String) async throws -> [OTPApplication] {
        try await database.read { db in
            try db.query(
                "SELECT * FROM otp_applications WHERE tenant_id = ? AND internal_purpose IS NULL ORDER BY created_at, id", tenantID)
                .map(OTPApplication.init(row:))
        }
    }

    public func application(tenantID: String, id: String) async throws -> OTPApplication {
        let app = try await database.read { db in
            try db.queryOne(
                "SELECT * FROM otp_applications WHERE id = ? AND tenant_id = ? AND internal_purpose IS NULL", id, tenantID
            ).map(OTPApplication.init(row:))
        }
        guard let app else { throw CoreError.notFound(.application) }
        return app
    }

    /// Sets (or, with `nil`, removes) a template of an application's group; the group named
    /// `""` holds the application's own defaults.
    public func setTemplate(
        tenantID: String, applicationID: String, group: String, channel: VerificationChannel, language: String, body: String?
    ) async throws {
        let language = LanguageCatalog.canonical(language)
        guard LanguageCatalog.isWellFormed(language) else { throw CoreError.invalid("language", .languageTag) }
        if let body {
            let valid = channel == .sms ? MessageRenderer.isValidSMSTemplate(body) : MessageRenderer.isValidCalloutTemplate(body)
            guard valid, body.count <= 1000 else { throw CoreError.invalid("template", .codePlaceholder) }
        }
        guard group.count <= 64 else { throw CoreError.invalid("group", .length(0...64)) }
        try await database.write { db in
            guard try db.queryOne("SELECT id FROM otp_applications WHERE id = ? AND tenant_id = ?", applicationID, tenantID) != nil else {
                throw CoreError.notFound(.application)
            }
            try db.execute(
                "DELETE FROM otp_templates WHERE application_id = ? AND group_name = ? AND channel = ? AND language = ?",
                applicationID, group, channel.rawValue, language)
            if let body {
                try db.execute(
                    "INSERT INTO otp_templates (application_id, group_name, channel, language, body) VALUES (?, ?, ?, ?, ?)",
                    applicationID, group, channel.rawValue, language, body)
            }
        }
    }
}
