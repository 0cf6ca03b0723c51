import Foundation
import GatehouseDatabase

/// One hour of verification traffic, as the pumping guard's counts hold it.
public struct VerificationHour: Sendable, Equatable {
    public let start: Date
    public let sent: Int
    public let verified: Int
    /// Prefixes blocked (by the guard or an operator) in the hour.
    public let blocks: Int
    /// Codes sent times each application's SMS fee: what the hour's SMS cost, at most.
    public let estimatedSpendMicros: Int64
}

/// Codes sent to one country and verified, over a period.
public struct CountryConversion: Sendable, Equatable {
    public let country: String
    public let sent: Int
    public let verified: Int
    public var rate: Double { sent > 0 ? Double(verified) / Double(sent) : 0 }
}

extension VerificationEngine {
    /// Traffic per hour from `since` (whole hours) to now, and per country, for one tenant or
    /// all: read from the hourly counts (aggregates, one row per application, country, hour
    /// and shard), never from the verifications themselves.
    public func activity(tenantID: String?, since: Date) async throws -> (hours: [VerificationHour], countries: [CountryConversion]) {
        // The counts this node holds are written first; other nodes' follow within a dispatcher pass.
        await flushCountsBeforeReading()
        let now = environment.clock.now
        let from = ConversionCounts.hourStart(since)
        let scoped = tenantID == nil ? "" : " AND a.tenant_id = ?"
        var arguments: [SQLValue] = [from.sqlValue]
        if let tenantID { arguments.append(.text(tenantID)) }
        let bound = arguments
        let (hourRows, countryRows, blockRows) = try await database.read { db in
            (
                try db.query(
                    """
                    SELECT c.hour_start, SUM(c.sent) AS sent, SUM(c.verified) AS verified, CAST(SUM(c.sent * a.fee_sms_micros) AS BIGINT) AS spend
                    FROM verification_conversion_counts c JOIN otp_applications a ON a.id = c.application_id
                    WHERE c.scope = 'country' AND c.hour_start >= ?\(scoped) GROUP BY c.hour_start
                    """, bound),
                try db.query(
                    """
                    SELECT c.value, SUM(c.sent) AS sent, SUM(c.verified) AS verified
                    FROM verification_conversion_counts c JOIN otp_applications a ON a.id = c.application_id
                    WHERE c.scope = 'country' AND c.hour_start >= ?\(scoped) GROUP BY c.value ORDER BY SUM(c.sent) DESC, c.value LIMIT 50
                    """, bound),
                try db.query(
                    """
                    SELECT b.blocked_at FROM verification_prefix_blocks b JOIN otp_applications a ON a.id = b.application_id
                    WHERE b.blocked_at >= ?\(scoped)
                    """, bound)
            )
        }
        var byHour: [Date: (sent: Int, verified: Int, spend: Int64)] = [:]
        for row in hourRows {
            byHour[try row.get("hour_start")] = (try row.get("sent"), try row.get("verified"), try row.get("spend", as: Int64?.self) ?? 0)
        }
        var blocks: [Date: Int] = [:]
        for row in blockRows { blocks[ConversionCounts.hourStart(try row.get("blocked_at")), default: 0] += 1 }
        var hours: [VerificationHour] = []
        var hour = from
        while hour <= now, hours.count < 24 * 62 {
            let counts = byHour[hour] ?? (0, 0, 0)
            hours.append(VerificationHour(start: hour, sent: counts.sent, verified: counts.verified, blocks: blocks[hour] ?? 0, estimatedSpendMicros: counts.spend))
            hour = hour.addingTimeInterval(3600)
        }
        let countries = try countryRows.map { CountryConversion(country: try $0.get("value"), sent: try $0.get("sent"), verified: try $0.get("verified")) }
        return (hours, countries)
    }
}
