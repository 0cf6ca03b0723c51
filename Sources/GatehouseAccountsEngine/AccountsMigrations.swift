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
        // Passkeys (WebAuthn): a tenant's relying party, each account's random user handle
        // (never its phone or email), the credentials with their counter and backup state,
        // and the challenges, kept by their hash, single use, with their purpose and account.
        Migration(id: "accounts.003_passkeys") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE passkey_configs (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    rp_id TEXT NOT NULL UNIQUE,
                    rp_name TEXT NOT NULL,
                    origins TEXT NOT NULL,
                    ios_app_ids TEXT NOT NULL,
                    enabled \(d.boolean) NOT NULL,
                    updated_at \(d.bigint) NOT NULL
                );
                ALTER TABLE accounts ADD COLUMN passkey_user_handle TEXT;
                CREATE UNIQUE INDEX accounts_by_passkey_user_handle ON accounts(tenant_id, passkey_user_handle);
                CREATE TABLE passkey_credentials (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    credential_id TEXT NOT NULL,
                    account_id TEXT NOT NULL REFERENCES accounts(id),
                    public_key \(d.blob) NOT NULL,
                    algorithm INTEGER NOT NULL,
                    sign_count \(d.bigint) NOT NULL,
                    backup_eligible \(d.boolean) NOT NULL,
                    backed_up \(d.boolean) NOT NULL,
                    aaguid TEXT NOT NULL,
                    name TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    last_used_at \(d.bigint),
                    counter_regressed_at \(d.bigint),
                    PRIMARY KEY (tenant_id, credential_id)
                );
                CREATE INDEX passkey_credentials_by_account ON passkey_credentials(tenant_id, account_id);
                CREATE TABLE passkey_challenges (
                    challenge_hash TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    purpose TEXT NOT NULL CHECK (purpose IN ('create', 'get')),
                    account_id TEXT,
                    expires_at \(d.bigint) NOT NULL,
                    consumed_at \(d.bigint)
                );
                CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges(expires_at);
                """)
        },
        // The email and passkey indexes hold only the accounts that have one. Whole, each was
        // another index led by the tenant, and PostgreSQL's plan for the phone lookup (`tenant_id
        // = ? AND phone = ?`) came to walk the passkey one: every account of the tenant per
        // sign-in (1.9 million index entries read for 941 lookups in the sign-in bench). Their
        // uniqueness is the same: a unique index never compared the NULLs it skipped.
        Migration(id: "accounts.004_partial_contact_indexes") { db in
            try db.executeScript("""
                DROP INDEX accounts_by_passkey_user_handle;
                CREATE UNIQUE INDEX accounts_by_passkey_user_handle ON accounts(tenant_id, passkey_user_handle) WHERE passkey_user_handle IS NOT NULL;
                DROP INDEX accounts_by_email;
                CREATE UNIQUE INDEX accounts_by_email ON accounts(tenant_id, email) WHERE email IS NOT NULL;
                """)
        },
    ]
}
