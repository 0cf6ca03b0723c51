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
        Migration(id: "commerce.003_subscriptions_trials_notifications") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE commerce_subscriptions (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    original_transaction_id TEXT NOT NULL,
                    account_id TEXT,
                    plan_id TEXT NOT NULL,
                    platform_product_id TEXT NOT NULL,
                    product_type TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    ownership_type TEXT NOT NULL,
                    latest_transaction_id TEXT NOT NULL,
                    purchased_at \(d.bigint) NOT NULL,
                    expires_at \(d.bigint) NOT NULL,
                    grace_expires_at \(d.bigint),
                    billing_issue_at \(d.bigint),
                    ended_at \(d.bigint),
                    revoked_at \(d.bigint),
                    auto_renew \(d.boolean),
                    last_event_at \(d.bigint) NOT NULL,
                    updated_at \(d.bigint) NOT NULL,
                    UNIQUE (tenant_id, original_transaction_id)
                );
                CREATE INDEX commerce_subscriptions_by_account ON commerce_subscriptions(tenant_id, account_id);
                CREATE INDEX commerce_subscriptions_by_original ON commerce_subscriptions(original_transaction_id);
                CREATE TABLE commerce_trials (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    account_id TEXT NOT NULL,
                    started_at \(d.bigint) NOT NULL,
                    ends_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, account_id)
                );
                CREATE TABLE commerce_notifications (
                    notification_uuid TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    notification_type TEXT NOT NULL,
                    subtype TEXT,
                    environment TEXT,
                    original_transaction_id TEXT,
                    transaction_id TEXT,
                    consumption_request_reason TEXT,
                    outcome TEXT NOT NULL,
                    signed_at \(d.bigint),
                    received_at \(d.bigint) NOT NULL
                );
                ALTER TABLE commerce_purchases ADD COLUMN revoked_at \(d.bigint);
                ALTER TABLE commerce_apple_configs ADD COLUMN claim_untagged_purchases \(d.boolean);
                """)
        },
        Migration(id: "commerce.004_account_tokens") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE commerce_account_tokens (
                    token TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    customer_id TEXT NOT NULL,
                    secret_hash \(d.blob) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    revoked_at \(d.bigint)
                );
                CREATE INDEX commerce_account_tokens_by_customer ON commerce_account_tokens(tenant_id, customer_id);
                """)
        },
        Migration(id: "commerce.005_fact_order") { db in
            // When the fact that last set each part of a purchase's state was signed (OrderedFacts);
            // NULL on older rows, which lets the next fact through.
            let d = db.dialect
            try db.executeScript("""
                ALTER TABLE commerce_subscriptions ADD COLUMN revocation_as_of \(d.bigint);
                ALTER TABLE commerce_subscriptions ADD COLUMN auto_renew_as_of \(d.bigint);
                ALTER TABLE commerce_purchases ADD COLUMN revocation_as_of \(d.bigint);
                """)
        },
        Migration(id: "commerce.006_xcode_certificate") { db in
            try db.executeScript("ALTER TABLE commerce_apple_configs ADD COLUMN xcode_certificate_pem TEXT;")
        },
        // One entry per charge and per refund of a reference (a workflow run): the primary key
        // makes a second refund of the same charge impossible.
        Migration(id: "commerce.007_wallet_entries") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE commerce_wallet_entries (
                    tenant_id TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    reference TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund', 'grant')),
                    amount \(d.bigint) NOT NULL,
                    balance_after \(d.bigint) NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, reference, kind)
                );
                CREATE INDEX commerce_wallet_entries_by_account ON commerce_wallet_entries(tenant_id, account_id, created_at);
                """)
        },
        // A plan sold on Google Play too: its subscription, and optionally a base plan. One
        // subscription (or one base plan of it) is one plan's; the index treats no base plan as ''.
        Migration(id: "commerce.009_google_plans") { db in
            try db.executeScript("""
                ALTER TABLE commerce_plans ADD COLUMN google_product_id TEXT;
                ALTER TABLE commerce_plans ADD COLUMN google_base_plan_id TEXT;
                CREATE UNIQUE INDEX commerce_plans_by_google_product
                  ON commerce_plans (tenant_id, google_product_id, COALESCE(google_base_plan_id, ''));
                """)
        },
        // The service account's key is kept sealed (`service_account_key`); its email and the
        // fingerprint of its public half are kept beside it in the clear, for the operator.
        Migration(id: "commerce.008_google_play_config") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE commerce_google_play_configs (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    package_name TEXT,
                    service_account_key TEXT,
                    client_email TEXT,
                    key_fingerprint TEXT,
                    push_audience TEXT,
                    push_service_account_email TEXT,
                    production \(d.boolean) NOT NULL,
                    updated_at \(d.bigint) NOT NULL
                );
                """)
        },
        // Google Play purchases. A subscription's line item is a row of `commerce_subscriptions`
        // (store 'google', keyed `google:<token hash>:<product>`), a one-time product's credits a
        // row of `commerce_purchases` keyed by its order id. Each purchase token has a row of
        // `commerce_google_tokens`: the token it replaced (`linkedPurchaseToken`) and the one
        // that replaced it, so a chain is walked whichever end arrives first, whether Google
        // still waits for its acknowledgement (or, for a consumable, its consumption), and
        // when Google said it was voided (refunded or charged back). Google's notifications are
        // kept in `commerce_notifications` under `google:<messageId>`. Android apps get a trial of their own.
        Migration(id: "commerce.010_google_purchases") { db in
            let d = db.dialect
            try db.executeScript("""
                ALTER TABLE commerce_subscriptions ADD COLUMN store TEXT;
                ALTER TABLE commerce_subscriptions ADD COLUMN google_token_hash TEXT;
                CREATE INDEX commerce_subscriptions_by_google_token ON commerce_subscriptions(tenant_id, google_token_hash);
                ALTER TABLE commerce_purchases ADD COLUMN store TEXT;
                CREATE TABLE commerce_google_tokens (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    token_hash TEXT NOT NULL,
                    purchase_token TEXT NOT NULL,
                    product_id TEXT,
                    linked_token_hash TEXT,
                    replaced_by TEXT,
                    settle TEXT,
                    settle_claimed_at \(d.bigint),
                    settled_at \(d.bigint),
                    settle_failures INTEGER NOT NULL DEFAULT 0,
                    next_settle_at \(d.bigint),
                    granted_at \(d.bigint),
                    voided_at \(d.bigint),
                    voided_order TEXT,
                    created_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, token_hash)
                );
                CREATE INDEX commerce_google_tokens_by_link ON commerce_google_tokens(tenant_id, linked_token_hash);
                CREATE INDEX commerce_google_tokens_unsettled ON commerce_google_tokens(settled_at, granted_at);
                ALTER TABLE commerce_google_play_configs ADD COLUMN voided_checked_at \(d.bigint);
                ALTER TABLE commerce_trial_configs ADD COLUMN android_enabled \(d.boolean);
                ALTER TABLE commerce_trial_configs ADD COLUMN android_duration_days INTEGER;
                """)
        },
    ]
}
