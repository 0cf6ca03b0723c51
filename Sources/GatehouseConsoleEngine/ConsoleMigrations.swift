import GatehouseDatabase

/// Tables of the operators' console: its operators and the append-only audit log.
public enum ConsoleMigrations {
    public static let all: [Migration] = [
        // An operator's TOTP secret is kept sealed (it must be read to check a code); the
        // password only as its scrypt hash. `totp_last_step` refuses a code used before.
        Migration(id: "console.001_operators") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE console_operators (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL CHECK (role IN ('viewer', 'admin')),
                    password_hash TEXT NOT NULL,
                    totp_secret TEXT NOT NULL,
                    totp_last_step \(d.bigint),
                    failed_attempts INTEGER NOT NULL DEFAULT 0,
                    locked_until \(d.bigint),
                    created_at \(d.bigint) NOT NULL
                );
                CREATE TABLE console_audit (
                    id TEXT PRIMARY KEY,
                    operator_id TEXT,
                    action TEXT NOT NULL,
                    target TEXT,
                    at \(d.bigint) NOT NULL
                );
                CREATE INDEX console_audit_by_time ON console_audit(at);
                """)
        },
        // A session is kept by the SHA-256 of its cookie's token (a stolen table signs nobody
        // in); `confirmed_at` is the last time its operator typed the password again, which
        // destructive actions ask for. The audit log says from where, and what was asked.
        Migration(id: "console.002_sessions") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE console_sessions (
                    id TEXT PRIMARY KEY,
                    operator_id TEXT NOT NULL REFERENCES console_operators(id) ON DELETE CASCADE,
                    csrf_token TEXT NOT NULL,
                    client_address TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    seen_at \(d.bigint) NOT NULL,
                    confirmed_at \(d.bigint)
                );
                CREATE INDEX console_sessions_by_operator ON console_sessions(operator_id);
                ALTER TABLE console_audit ADD COLUMN client_address TEXT;
                ALTER TABLE console_audit ADD COLUMN detail TEXT;
                """)
        },
        // Operators' passkeys, a second factor beside TOTP: their keys and counters, a random
        // user handle per operator, and the challenges (by hash, single use, with purpose and operator;
        // a sign-in's written only once answered).
        Migration(id: "console.003_passkeys") { db in
            let d = db.dialect
            try db.executeScript("""
                ALTER TABLE console_operators ADD COLUMN passkey_user_handle TEXT;
                CREATE TABLE console_passkeys (
                    credential_id TEXT PRIMARY KEY,
                    operator_id TEXT NOT NULL REFERENCES console_operators(id) ON DELETE CASCADE,
                    public_key \(d.blob) NOT NULL,
                    sign_count \(d.bigint) NOT NULL,
                    backup_eligible \(d.boolean) NOT NULL,
                    name TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    last_used_at \(d.bigint)
                );
                CREATE INDEX console_passkeys_by_operator ON console_passkeys(operator_id);
                CREATE TABLE console_passkey_challenges (
                    challenge_hash TEXT PRIMARY KEY,
                    operator_id TEXT,
                    purpose TEXT NOT NULL CHECK (purpose IN ('create', 'get')),
                    expires_at \(d.bigint) NOT NULL,
                    consumed_at \(d.bigint)
                );
                CREATE INDEX console_passkey_challenges_by_expiry ON console_passkey_challenges(expires_at);
                """)
        },
    ]
}
