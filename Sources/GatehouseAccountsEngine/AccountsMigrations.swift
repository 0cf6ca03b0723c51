import GatehouseDatabase

/// Tables of the accounts engine: accounts, their sessions, and per-tenant token keys.
public enum AccountsMigrations {
    public static let all: [Migration] = [
        Migration(id: "accounts.001_accounts_sessions_keys") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE accounts (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    phone TEXT,
                    email TEXT,
                    name TEXT,
                    timezone TEXT,
                    country TEXT,
                    status TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    deleted_at \(d.bigint)
                );
                CREATE UNIQUE INDEX accounts_by_phone ON accounts(tenant_id, phone);
                CREATE UNIQUE INDEX accounts_by_email ON accounts(tenant_id, email);
                CREATE TABLE account_sessions (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL,
                    account_id TEXT NOT NULL REFERENCES accounts(id),
                    secret \(d.blob) NOT NULL,
                    generation INTEGER NOT NULL,
                    rotated_at \(d.bigint) NOT NULL,
                    current_used \(d.boolean) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    last_used_at \(d.bigint) NOT NULL,
                    refresh_expires_at \(d.bigint) NOT NULL,
                    absolute_expires_at \(d.bigint) NOT NULL,
                    revoked_reason TEXT,
                    revoked_at \(d.bigint),
                    device_name TEXT,
                    platform TEXT,
                    app_version TEXT
                );
                CREATE INDEX account_sessions_by_account ON account_sessions(account_id, created_at);
                CREATE TABLE tenant_signing_keys (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    key_id TEXT NOT NULL,
                    secret \(d.blob) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    retired_at \(d.bigint),
                    PRIMARY KEY (tenant_id, key_id)
                );
                """)
        },
        // Revoked sessions keep the engine's own reason, not a dialect's error code.
        Migration(id: "accounts.002_session_reason_names") { db in
            try db.executeScript("""
                UPDATE account_sessions SET revoked_reason = CASE revoked_reason
                    WHEN 'SESSION_EVICTED' THEN 'evicted' WHEN 'TOKEN_REUSED' THEN 'refresh_reused'
                    WHEN 'TOKEN_EXPIRED' THEN 'expired' WHEN 'TOKEN_INVALID' THEN 'invalid'
                    WHEN 'SESSION_NOT_FOUND' THEN 'ended' WHEN 'ACCOUNT_DELETED' THEN 'account_deleted'
                    ELSE revoked_reason END
                WHERE revoked_reason IS NOT NULL;
                """)
        },
    ]
}