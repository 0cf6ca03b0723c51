import GatehouseDatabase

extension VerificationMigrations {
    /// Existing applications get the automatic blocks, like new ones, and no budgets.
    static func pumpingGuard(_ db: any DatabaseConnection) throws {
        let on = db.dialect.trueLiteral
        try db.executeScript("""
            ALTER TABLE otp_applications ADD COLUMN prefix_hourly_limit INTEGER;
            ALTER TABLE otp_applications ADD COLUMN prefix_daily_limit INTEGER;
            ALTER TABLE otp_applications ADD COLUMN country_hourly_limit INTEGER;
            ALTER TABLE otp_applications ADD COLUMN country_daily_limit INTEGER;
            ALTER TABLE otp_applications ADD COLUMN auto_block_prefixes \(db.dialect.boolean) NOT NULL DEFAULT \(on);
            ALTER TABLE verifications ADD COLUMN destination_prefix TEXT;
            ALTER TABLE verifications ADD COLUMN destination_country TEXT;
            CREATE INDEX verifications_prefix_recent ON verifications(application_id, destination_prefix, created_at)
              WHERE destination_prefix IS NOT NULL;
            CREATE TABLE verification_conversion_counts (
                application_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                value TEXT NOT NULL,
                hour_start \(db.dialect.bigint) NOT NULL,
                shard INTEGER NOT NULL,
                sent INTEGER NOT NULL,
                verified INTEGER NOT NULL,
                PRIMARY KEY (application_id, scope, value, hour_start, shard)
            );
            CREATE INDEX verification_conversion_hours ON verification_conversion_counts(application_id, scope, hour_start);
            CREATE INDEX verification_conversion_age ON verification_conversion_counts(hour_start);
            CREATE TABLE verification_prefix_blocks (
                application_id TEXT NOT NULL REFERENCES otp_applications(id),
                prefix TEXT NOT NULL,
                country TEXT,
                reason TEXT NOT NULL,
                sent INTEGER NOT NULL,
                verified INTEGER NOT NULL,
                baseline_permille INTEGER,
                blocked_at \(db.dialect.bigint) NOT NULL,
                blocked_until \(db.dialect.bigint),
                lifted_at \(db.dialect.bigint),
                PRIMARY KEY (application_id, prefix)
            );
            CREATE TABLE verification_tenant_prefix_pins (
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                prefix TEXT NOT NULL,
                pinned_at \(db.dialect.bigint) NOT NULL,
                PRIMARY KEY (tenant_id, prefix)
            );
            """)
    }
}
