import Foundation
import GatehouseDatabase

extension VerificationMigrations {
    /// The durable delivery queue, and the shards that replace one hot row per application
    /// (volume counters) and per tenant (billed verifications).
    static func deliveryQueueAndShards(_ db: any DatabaseConnection) throws {
        let d = db.dialect
        try db.executeScript("""
            CREATE TABLE verification_deliveries (
                verification_id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                code TEXT NOT NULL,
                app_hash TEXT,
                attempts INTEGER NOT NULL,
                available_at \(d.bigint) NOT NULL,
                created_at \(d.bigint) NOT NULL
            );
            CREATE INDEX verification_deliveries_due ON verification_deliveries(available_at);
            CREATE TABLE verification_volume_shards (
                counter_key TEXT NOT NULL,
                shard INTEGER NOT NULL,
                hits INTEGER NOT NULL,
                period_end \(d.bigint) NOT NULL,
                PRIMARY KEY (counter_key, shard)
            );
            CREATE INDEX verification_volume_shards_by_end ON verification_volume_shards(period_end);
            CREATE TABLE verification_balance_shards (
                tenant_id TEXT NOT NULL,
                shard INTEGER NOT NULL,
                delta_micros \(d.bigint) NOT NULL,
                PRIMARY KEY (tenant_id, shard)
            );
            """)
        try carryVolumeOver(db)
    }

    /// This period's volume so far moves from the old single counters to the shards, so an
    /// upgrade in the middle of a day neither forgets nor doubles what was sent.
    private static func carryVolumeOver(_ db: any DatabaseConnection) throws {
        let old = try db.query(
            "SELECT counter_key, hits FROM rate_counters WHERE counter_key LIKE 'verify:daily:%' OR counter_key LIKE 'verify:monthly:%'", [])
        for row in old {
            let key: String = try row.get("counter_key")
            guard let period = key.split(separator: ":").last, let end = VolumePeriods.end(ofPeriod: String(period)) else { continue }
            // Spread as the shard caps are (an n-th each, the first shards one more), so no
            // shard holds more than its share of a limit the old count had not reached.
            let hits: Int = try row.get("hits")
            let shards = VerificationEngine.volumeShards
            for shard in 0..<shards {
                let share = hits / shards + (shard < hits % shards ? 1 : 0)
                guard share > 0 else { continue }
                try db.execute(
                    "INSERT INTO verification_volume_shards (counter_key, shard, hits, period_end) VALUES (?, ?, ?, ?)",
                    [.text(String(key.dropFirst("verify:".count))), .integer(Int64(shard)), .integer(Int64(share)), end.sqlValue])
            }
        }
        try db.execute("DELETE FROM rate_counters WHERE counter_key LIKE 'verify:daily:%' OR counter_key LIKE 'verify:monthly:%'", [])
    }
}
