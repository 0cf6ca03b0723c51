import GatehouseDatabase

/// Tables of the workflows engine: definitions, the executor settings of each tenant, runs
/// (which are also the job queue) and the per-account event log the report stream replays.
public enum WorkflowsMigrations {
    public static let all: [Migration] = [
        Migration(id: "workflows.001_definitions_runs_events") { db in
            let d = db.dialect
            try db.executeScript("""
                CREATE TABLE workflow_definitions (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    description TEXT NOT NULL,
                    category TEXT NOT NULL,
                    featured \(d.boolean) NOT NULL,
                    credits INTEGER NOT NULL,
                    enabled \(d.boolean) NOT NULL,
                    response_kind TEXT NOT NULL,
                    executor_kind TEXT NOT NULL,
                    executor_config TEXT NOT NULL,
                    inputs TEXT NOT NULL,
                    timeout_seconds INTEGER NOT NULL,
                    search_text TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    updated_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, id)
                );
                CREATE TABLE workflow_tenant_settings (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    worker_url TEXT,
                    worker_secret TEXT,
                    openai_base_url TEXT,
                    openai_api_key TEXT,
                    openai_model TEXT,
                    max_concurrent_runs INTEGER NOT NULL,
                    updated_at \(d.bigint) NOT NULL
                );
                CREATE TABLE workflow_runs (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    account_id TEXT NOT NULL,
                    workflow_id TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'timed_out')),
                    input TEXT NOT NULL,
                    files TEXT NOT NULL,
                    credits INTEGER NOT NULL,
                    credits_refunded INTEGER NOT NULL,
                    attempts INTEGER NOT NULL,
                    available_at \(d.bigint) NOT NULL,
                    lease_owner TEXT,
                    lease_until \(d.bigint),
                    deadline_at \(d.bigint),
                    result TEXT,
                    error_code TEXT,
                    error_message TEXT,
                    idempotency_key TEXT,
                    fingerprint TEXT,
                    created_at \(d.bigint) NOT NULL,
                    started_at \(d.bigint),
                    finished_at \(d.bigint),
                    files_removed \(d.boolean) NOT NULL
                );
                CREATE INDEX workflow_runs_queued ON workflow_runs(available_at) WHERE status = 'queued';
                CREATE INDEX workflow_runs_running ON workflow_runs(tenant_id) WHERE status = 'running';
                CREATE INDEX workflow_runs_by_account ON workflow_runs(tenant_id, account_id, created_at);
                CREATE UNIQUE INDEX workflow_runs_by_key ON workflow_runs(tenant_id, account_id, idempotency_key);
                CREATE TABLE workflow_event_cursors (
                    tenant_id TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    last_seq \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, account_id)
                );
                CREATE TABLE workflow_events (
                    tenant_id TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    seq \(d.bigint) NOT NULL,
                    run_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at \(d.bigint) NOT NULL,
                    PRIMARY KEY (tenant_id, account_id, seq)
                );
                """)
        },
        // The operators' overview counts a period's runs by status: read by time, not by scanning every run.
        Migration(id: "workflows.002_runs_by_time") { db in
            try db.executeScript("CREATE INDEX workflow_runs_by_time ON workflow_runs(created_at)")
        },
    ]
}
