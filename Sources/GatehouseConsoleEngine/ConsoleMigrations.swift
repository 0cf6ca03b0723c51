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
    ]
}
