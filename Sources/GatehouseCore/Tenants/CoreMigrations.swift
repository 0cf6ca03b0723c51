import GatehouseDatabase

/// The core tables: tenants, their applications and keys, and admin tokens.
public enum CoreMigrations {
    public static let all: [Migration] = [
        Migration(id: "core.001_tenants") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE tenants (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    disabled_at \(d.bigint)
                );
                CREATE TABLE applications (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    name TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL
                );
                CREATE INDEX applications_by_tenant ON applications(tenant_id, created_at);
                CREATE TABLE api_keys (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    application_id TEXT REFERENCES applications(id),
                    label TEXT NOT NULL,
                    secret_hash \(d.blob) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    revoked_at \(d.bigint)
                );
                CREATE INDEX api_keys_by_tenant ON api_keys(tenant_id, created_at);
                CREATE TABLE admin_tokens (
                    id TEXT PRIMARY KEY,
                    label TEXT NOT NULL,
                    token_hash \(d.blob) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    revoked_at \(d.bigint)
                );
                """)
        },
        Migration(id: "core.002_outbox_and_rate_counters") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE rate_counters (
                    counter_key TEXT PRIMARY KEY,
                    window_start \(d.bigint) NOT NULL,
                    hits \(d.bigint) NOT NULL
                );
                CREATE TABLE outbox_messages (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL,
                    to_address TEXT NOT NULL,
                    channel TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL
                );
                CREATE INDEX outbox_by_recipient ON outbox_messages(to_address, created_at);
                """)
        },
        Migration(id: "core.003_key_platforms") { db in
            // Sign-in calls carry a tenant key per platform: IOS, ANDROID or WEB.
            try db.executeScript("ALTER TABLE api_keys ADD COLUMN platform TEXT")
        },
    ]
}
