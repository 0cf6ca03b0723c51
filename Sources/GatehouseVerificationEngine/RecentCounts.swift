import Foundation
import GatehouseDatabase

/// Codes sent and verified per application and prefix in ten-second buckets of the time they
/// were sent, on each node's own rows like the hourly counts: what the pumping guard needs to leave the codes
/// of the last minute unjudged without counting their rows, so its cost per start does not
/// grow with the very traffic it watches.
enum RecentCounts {
    /// The width of a bucket.
    static let width: TimeInterval = 10
    /// How long a bucket is kept: the guard reads the last minute and a bucket.
    static let kept: TimeInterval = 600

    static func bucketStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / width).rounded(.down) * width)
    }

    /// Adds counts to `shard`'s row (seeding history; starts and verifications count through
    /// ``PendingCounts``).
    static func add(
        _ db: any DatabaseConnection, applicationID: String, prefix: String, sentAt: Date, shard: Int, sent: Int = 0, verified: Int = 0
    ) throws {
        var tally = PendingCounts.Tally()
        tally.add(HeldCounts(recent: (applicationID, prefix, bucketStart(sentAt)), codes: .init(sent: sent, verified: verified)))
        try db.send(tally.writes(shard: shard))
    }

    /// Where the codes sent in the last `span` and not verified yet begin: at most a bucket
    /// more than the span, never less, so a code is judged a little late rather than early
    /// (read by `ConversionCounts.lastHour(_:applicationID:prefix:now:unverifiedSince:)`).
    static func unverifiedSince(_ now: Date, span: TimeInterval) -> Date {
        bucketStart(now.addingTimeInterval(-span))
    }

    static func prune(_ db: any DatabaseConnection, now: Date) throws {
        try db.execute("DELETE FROM verification_recent_counts WHERE bucket_start < ?", bucketStart(now.addingTimeInterval(-kept)))
    }
}
