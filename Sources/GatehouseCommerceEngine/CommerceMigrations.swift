import GatehouseDatabase

/// Tables of the commerce engine: each tenant's App Store settings and catalogue.
public enum CommerceMigrations {
    public static let all: [Migration] = [
        Migration(id: "commerce.001_store_configuration") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE commerce_apple_configs (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    bundle_id TEXT,
                    issuer_id TEXT,
                    key_id TEXT,
                    private_key TEXT,
                    app_apple_id \(d.bigint),
                    production \(d.boolean) NOT NULL,
                    extra_trusted_root_pem TEXT,
                    updated_at \(d.bigint) NOT NULL
                );
                CREATE TABLE commerce_credit_packages (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    provider TEXT NOT NULL,
                    platform_product_id TEXT NOT NULL,
                    credits INTEGER NOT NULL,
                    display_name TEXT,
                    UNIQUE (tenant_id, provider, platform_product_id)
                );
                CREATE TABLE commerce_plans (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    display_name TEXT NOT NULL,
                    plan_interval TEXT NOT NULL,
                    apple_product_id TEXT NOT NULL,
                    gated_workflow_id TEXT,
                    created_at \(d.bigint) NOT NULL,
                    UNIQUE (tenant_id, apple_product_id)
                );
                CREATE TABLE commerce_trial_configs (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    ios_enabled \(d.boolean) NOT NULL,
                    ios_duration_days INTEGER NOT NULL
                );
                """)
        },
        Migration(id: "commerce.002_purchases_and_wallets") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE commerce_purchases (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    transaction_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    platform_product_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    credits INTEGER NOT NULL,
                    environment TEXT NOT NULL,
                    signed_at \(d.bigint),
                    created_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, transaction_id)
                );
                CREATE INDEX commerce_purchases_by_account ON commerce_purchases(account_id);
                CREATE TABLE commerce_wallets (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    account_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    credits \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, account_id, kind)
                );
                """)
        },
    ]
}
