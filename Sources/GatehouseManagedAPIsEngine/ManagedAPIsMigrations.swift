import GatehouseDatabase

/// Tables of the managed APIs engine: the definitions, with their one static secret sealed,
/// and the access tokens the server holds for client-credentials definitions.
public enum ManagedAPIsMigrations {
    public static let all: [Migration] = [
        Migration(id: "managed_apis.001_definitions_tokens") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE managed_api_definitions (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    name TEXT NOT NULL,
                    display_name TEXT NOT NULL,
                    base_url TEXT NOT NULL,
                    auth_type TEXT NOT NULL,
                    mode TEXT NOT NULL CHECK (mode IN ('direct', 'proxied')),
                    development \(d.boolean) NOT NULL,
                    auth_settings TEXT NOT NULL,
                    sealed_secret TEXT,
                    metadata TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    updated_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, name)
                );
                CREATE TABLE managed_api_tokens (
                    tenant_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    sealed_token TEXT,
                    expires_at \(d.bigint),
                    lease_owner TEXT,
                    lease_until \(d.bigint),
                    updated_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, name)
                );
                """)
        },
        // The lease is taken by compare-and-set on this, moved on by every change of the row.
        Migration(id: "managed_apis.002_token_version") { db in
            try db.executeScript("ALTER TABLE managed_api_tokens ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
        },
    ]
}
