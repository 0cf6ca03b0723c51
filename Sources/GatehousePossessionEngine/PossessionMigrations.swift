import GatehouseDatabase

/// Tables of the possession engine: each tenant's settings, its API clients and their bearer
/// tokens, its identity directory (dates of birth and SSNs sealed), and the flows.
public enum PossessionMigrations {
    public static let all: [Migration] = [
        Migration(id: "possession.001_clients_identities_flows") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE possession_settings (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    return_full_ssn \(d.boolean) NOT NULL,
                    carrier TEXT NOT NULL,
                    sealed_carrier_secret TEXT,
                    updated_at \(d.bigint) NOT NULL
                );
                CREATE TABLE possession_clients (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    label TEXT NOT NULL,
                    secret_hash \(d.blob) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    revoked_at \(d.bigint)
                );
                CREATE INDEX possession_clients_tenant ON possession_clients (tenant_id);
                CREATE TABLE possession_access_tokens (
                    id TEXT PRIMARY KEY,
                    client_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    token_hash \(d.blob) NOT NULL,
                    expires_at \(d.bigint) NOT NULL
                );
                CREATE INDEX possession_access_tokens_client ON possession_access_tokens (client_id, expires_at);
                CREATE TABLE possession_identities (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    phone_number TEXT NOT NULL,
                    first_name TEXT NOT NULL,
                    last_name TEXT NOT NULL,
                    addresses TEXT NOT NULL,
                    email_addresses TEXT NOT NULL,
                    sealed_dob TEXT,
                    sealed_ssn TEXT,
                    updated_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, phone_number)
                );
                CREATE TABLE possession_flows (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    flow_type TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    phone_number TEXT,
                    possessed_number TEXT,
                    details TEXT NOT NULL,
                    sealed_challenge TEXT,
                    otp_length INTEGER NOT NULL,
                    otp_tries INTEGER NOT NULL,
                    otp_expires_at \(d.bigint),
                    auth_token_hash \(d.blob) NOT NULL,
                    auth_used_at \(d.bigint),
                    device_token_hash \(d.blob),
                    test_mode \(d.boolean) NOT NULL,
                    device_step TEXT NOT NULL,
                    carrier_provider TEXT,
                    carrier_state_hash \(d.blob),
                    server_step TEXT NOT NULL,
                    challenge_tries INTEGER NOT NULL,
                    sealed_prefill TEXT,
                    outcome TEXT,
                    created_at \(d.bigint) NOT NULL,
                    expires_at \(d.bigint) NOT NULL,
                    updated_at \(d.bigint) NOT NULL,
                    version INTEGER NOT NULL
                );
                CREATE INDEX possession_flows_expiry ON possession_flows (expires_at);
                """)
        },
    ]
}
