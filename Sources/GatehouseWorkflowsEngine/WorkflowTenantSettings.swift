import Foundation
import GatehouseCore
import GatehouseDatabase

/// A tenant's executor settings: its webhook worker, its OpenAI-compatible endpoint and how
/// many of its runs may be in progress at once. The secrets are never answered by any API.
public struct WorkflowTenantSettings: Sendable, Equatable {
    public var workerURL: URL?
    /// Signs what is sent to the worker and what it calls back with.
    public var workerSecret: String?
    public var openAIBaseURL: URL?
    public var openAIAPIKey: String?
    public var openAIModel: String?
    public var maxConcurrentRuns: Int

    public init(
        workerURL: URL? = nil, workerSecret: String? = nil, openAIBaseURL: URL? = nil, openAIAPIKey: String? = nil,
        openAIModel: String? = nil, maxConcurrentRuns: Int
    ) {
        self.workerURL = workerURL
        self.workerSecret = workerSecret
        self.openAIBaseURL = openAIBaseURL
        self.openAIAPIKey = openAIAPIKey
        self.openAIModel = openAIModel
        self.maxConcurrentRuns = maxConcurrentRuns
    }
}

/// A change to a tenant's executor settings: `nil` keeps a value, `.some(nil)` clears it.
public struct WorkflowTenantSettingsPatch: Sendable, Equatable {
    public var workerURL: URL??
    public var workerSecret: String??
    public var openAIBaseURL: URL??
    public var openAIAPIKey: String??
    public var openAIModel: String??
    public var maxConcurrentRuns: Int?
    public init() {}
}

extension WorkflowsEngine {
    public func tenantSettings(tenantID: String) async throws -> WorkflowTenantSettings {
        let fallback = settings.defaultConcurrency
        return try await database.read { db in try Self.tenantSettings(db, tenantID: tenantID, fallback: fallback) }
    }

    public func updateTenantSettings(tenantID: String, _ patch: WorkflowTenantSettingsPatch) async throws -> WorkflowTenantSettings {
        for url in [patch.workerURL, patch.openAIBaseURL].compactMap({ $0 ?? nil }) {
            guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false else {
                throw WorkflowError.definition(url.absoluteString, .httpURL)
            }
        }
        if let secret = patch.workerSecret ?? nil, secret.count < 16 || secret.count > 200 {
            throw WorkflowError.definition("workerSecret", .length(16...200))
        }
        if let limit = patch.maxConcurrentRuns, limit < 1 || limit > 1000 {
            throw WorkflowError.definition("maxConcurrentRuns", .range(1...1000))
        }
        let (now, fallback) = (self.now, settings.defaultConcurrency)
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            // Patches of different fields each keep the other's.
            try db.takeTurn("workflow-settings:" + tenantID)
            var current = try Self.tenantSettings(db, tenantID: tenantID, fallback: fallback)
            if let value = patch.workerURL { current.workerURL = value }
            if let value = patch.workerSecret { current.workerSecret = value }
            if let value = patch.openAIBaseURL { current.openAIBaseURL = value }
            if let value = patch.openAIAPIKey { current.openAIAPIKey = value }
            if let value = patch.openAIModel { current.openAIModel = value }
            if let value = patch.maxConcurrentRuns { current.maxConcurrentRuns = value }
            try db.execute(
                """
                INSERT INTO workflow_tenant_settings (tenant_id, worker_url, worker_secret, openai_base_url, openai_api_key, openai_model,
                  max_concurrent_runs, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id) DO UPDATE SET worker_url = excluded.worker_url, worker_secret = excluded.worker_secret,
                  openai_base_url = excluded.openai_base_url, openai_api_key = excluded.openai_api_key,
                  openai_model = excluded.openai_model, max_concurrent_runs = excluded.max_concurrent_runs,
                  updated_at = excluded.updated_at
                """,
                [.text(tenantID), current.workerURL?.absoluteString.sqlValue ?? .null, current.workerSecret.sqlValue,
                 current.openAIBaseURL?.absoluteString.sqlValue ?? .null, current.openAIAPIKey.sqlValue, current.openAIModel.sqlValue,
                 .integer(Int64(current.maxConcurrentRuns)), now.sqlValue])
            return current
        }
    }

    static func tenantSettings(_ db: any DatabaseConnection, tenantID: String, fallback: Int) throws -> WorkflowTenantSettings {
        try tenantSettings(sendTenantSettings(db, tenantID: tenantID), fallback: fallback)
    }

    /// The tenant's settings row, sent without waiting.
    static func sendTenantSettings(_ db: any DatabaseConnection, tenantID: String) throws -> SentStatement {
        try db.send("SELECT * FROM workflow_tenant_settings WHERE tenant_id = ?", tenantID)
    }

    static func tenantSettings(_ sent: SentStatement, fallback: Int) throws -> WorkflowTenantSettings {
        guard let row = try sent.rows().first else {
            return WorkflowTenantSettings(maxConcurrentRuns: fallback)
        }
        return WorkflowTenantSettings(
            workerURL: (try row.get("worker_url", as: String?.self)).flatMap(URL.init(string:)),
            workerSecret: try row.get("worker_secret"),
            openAIBaseURL: (try row.get("openai_base_url", as: String?.self)).flatMap(URL.init(string:)),
            openAIAPIKey: try row.get("openai_api_key"), openAIModel: try row.get("openai_model"),
            maxConcurrentRuns: try row.get("max_concurrent_runs"))
    }
}
