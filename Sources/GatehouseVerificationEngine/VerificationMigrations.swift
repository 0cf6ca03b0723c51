import GatehouseDatabase

/// Tables of the verification engine.
public enum VerificationMigrations {
    public static let all: [Migration] = [
        Migration(id: "verification.001_applications_and_verifications") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE otp_applications (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    name TEXT NOT NULL,
                    app_key TEXT NOT NULL UNIQUE,
                    secret TEXT NOT NULL,
                    min_auth TEXT NOT NULL,
                    callback_url TEXT,
                    sms_domain TEXT,
                    code_length INTEGER NOT NULL,
                    lifetime_seconds INTEGER NOT NULL,
                    max_attempts INTEGER NOT NULL,
                    paused \(d.boolean) NOT NULL,
                    disabled_countries TEXT NOT NULL,
                    daily_limit INTEGER,
                    monthly_limit INTEGER,
                    cooldown_seconds INTEGER NOT NULL,
                    fee_sms_micros \(d.bigint) NOT NULL,
                    fee_callout_micros \(d.bigint) NOT NULL,
                    created_at \(d.bigint) NOT NULL
                );
                CREATE INDEX otp_applications_by_tenant ON otp_applications(tenant_id, created_at);
                CREATE TABLE otp_templates (
                    application_id TEXT NOT NULL REFERENCES otp_applications(id),
                    group_name TEXT NOT NULL,
                    channel TEXT NOT NULL,
                    language TEXT NOT NULL,
                    body TEXT NOT NULL,
                    PRIMARY KEY (application_id, group_name, channel, language)
                );
                CREATE TABLE verification_accounts (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    balance_micros \(d.bigint) NOT NULL
                );
                CREATE TABLE verifications (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL,
                    application_id TEXT NOT NULL REFERENCES otp_applications(id),
                    destination TEXT NOT NULL,
                    channel TEXT NOT NULL,
                    status TEXT NOT NULL,
                    error_code TEXT,
                    code_hash \(d.blob),
                    code_length INTEGER NOT NULL,
                    attempts INTEGER NOT NULL,
                    max_attempts INTEGER NOT NULL,
                    fee_micros \(d.bigint) NOT NULL,
                    language TEXT,
                    template TEXT,
                    template_group TEXT,
                    template_group_used \(d.boolean) NOT NULL,
                    template_fallback_reason TEXT,
                    autofill_type TEXT,
                    autofill_value TEXT,
                    interception_timeout INTEGER NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    expires_at \(d.bigint) NOT NULL,
                    dispatched_at \(d.bigint),
                    dispatch_claimed_at \(d.bigint),
                    finished_at \(d.bigint)
                );
                CREATE INDEX verifications_by_number ON verifications(application_id, destination, created_at);
                CREATE INDEX verifications_pending_dispatch ON verifications(status, dispatched_at);
                """)
        },
        Migration(id: "verification.002_internal_applications") { db in
            // Gatehouse's own sign-in codes live on applications the DIDWW API never sees.
            try db.executeScript("ALTER TABLE otp_applications ADD COLUMN internal_purpose TEXT")
        },
        Migration(id: "verification.003_delivery_queue_and_shards") { db in try deliveryQueueAndShards(db) },
        // The index on (status, dispatched_at) led SQLite, without statistics, to answer a
        // start's "supersede the live verification of this number" by walking every pending
        // verification of the installation; only the sweep needs the undispatched ones, so
        // the index now holds only those and the number index serves every start.
        Migration(id: "verification.004_undispatched_index") { db in
            try db.executeScript("""
                DROP INDEX verifications_pending_dispatch;
                CREATE INDEX verifications_undispatched ON verifications(dispatch_claimed_at)
                  WHERE status = 'pending' AND dispatched_at IS NULL;
                """)
        },
        // Why an application's request callback last failed, for the operator's view.
        Migration(id: "verification.005_callback_failures") { db in
            try db.executeScript("""
                CREATE TABLE otp_callback_failures (
                    application_id TEXT PRIMARY KEY,
                    reason TEXT NOT NULL,
                    failed_at \(db.dialect.bigint) NOT NULL
                );
                """)
        },
        // A tenant's test numbers and emails with their fixed codes (App Review, CI).
        Migration(id: "verification.006_test_numbers") { db in
            try db.executeScript("""
                CREATE TABLE verification_test_numbers (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    destination TEXT NOT NULL,
                    code TEXT NOT NULL,
                    confirmed \(db.dialect.boolean) NOT NULL,
                    created_at \(db.dialect.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, destination)
                );
                """)
        },
        // The provider that took each code and its message id, for its delivery receipts.
        Migration(id: "verification.007_provider_message_ids") { db in
            try db.executeScript("""
                ALTER TABLE verifications ADD COLUMN provider TEXT;
                ALTER TABLE verifications ADD COLUMN provider_message_id TEXT;
                CREATE INDEX verifications_provider_message ON verifications(provider, provider_message_id) WHERE provider_message_id IS NOT NULL;
                """)
        },
        // What the provider's delivery receipt said, and when.
        Migration(id: "verification.008_delivery_status") { db in
            try db.executeScript("""
                ALTER TABLE verifications ADD COLUMN delivery_status TEXT;
                ALTER TABLE verifications ADD COLUMN delivery_status_at \(db.dialect.bigint);
                """)
        },
        // The SMS-pumping guard: per-prefix and per-country budgets on each application, the
        // prefix and country of each code sent, hourly sent/verified counts per prefix and
        // country (sharded like the volume counters), and the prefixes blocked.
        Migration(id: "verification.009_pumping_guard") { db in try pumpingGuard(db) },
        // Ten-second counts of the codes sent and verified per prefix, so the guard leaves
        // the last minute's codes unjudged without counting their rows (the index that
        // counted them goes: every insert paid for it).
        Migration(id: "verification.010_recent_counts") { db in
            try db.executeScript("""
                DROP INDEX IF EXISTS verifications_prefix_recent;
                CREATE TABLE verification_recent_counts (
                    application_id TEXT NOT NULL,
                    prefix TEXT NOT NULL,
                    bucket_start \(db.dialect.bigint) NOT NULL,
                    shard INTEGER NOT NULL,
                    sent INTEGER NOT NULL,
                    verified INTEGER NOT NULL,
                    PRIMARY KEY (application_id, prefix, bucket_start, shard)
                );
                CREATE INDEX verification_recent_age ON verification_recent_counts(bucket_start);
                """)
        },
        // The guard's reads of one prefix (its last hour on every start, its history) are
        // answered by the primary key, (application, scope, value, hour, shard). The index on
        // (application, scope, hour) competed with it: PostgreSQL, planning for a table it has
        // no statistics for (a new installation's, or after a reset), took that index and
        // filtered on the prefix, reading every prefix's rows of the application (1,288 a
        // start in the bench's 100-prefix row; 48 ms for one prefix's history among 300
        // busy ones, against 0.2 ms), whatever shape the statement had. The hours of the
        // countries (the console's charts, the baseline) keep an index that holds only them,
        // which a statement about a prefix cannot use.
        Migration(id: "verification.011_country_hours_index") { db in
            try db.executeScript("""
                DROP INDEX IF EXISTS verification_conversion_hours;
                CREATE INDEX verification_conversion_country_hours ON verification_conversion_counts(application_id, hour_start)
                  WHERE scope = 'country';
                """)
        },
    ]
}
