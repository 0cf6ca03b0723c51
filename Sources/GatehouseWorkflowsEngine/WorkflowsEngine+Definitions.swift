import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseFormats
import GatehouseRules

/// The operator's side: saving, reading and removing a tenant's definitions.
extension WorkflowsEngine {
    /// Saves (creates or replaces) a definition, refusing one that contradicts itself or names
    /// an executor this server does not have.
    @discardableResult
    public func saveDefinition(tenantID: String, _ definition: WorkflowDefinition) async throws -> WorkflowDefinition {
        if let reason = definition.problem(maxUploadBytes: settings.maxUploadBytes, maxTimeoutSeconds: settings.maxTimeoutSeconds) {
            throw WorkflowError(.definitionInvalid, reason)
        }
        guard let executor = executors[definition.executor.kind] else {
            throw WorkflowError(.definitionInvalid, .executorUnknown(known: executorKinds))
        }
        try executor.validate(configuration: definition.executor.configuration)
        let now = self.now
        let inputs = try Self.encode(definition.inputs)
        let configuration = try Self.encode(definition.executor.configuration)
        let invalidations = environment.invalidations
        defer { invalidations.drop(cache: Self.catalogueCacheName, key: tenantID) }
        try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            try invalidations.announce(db, cache: Self.catalogueCacheName, key: tenantID)
            try db.execute(
                """
                INSERT INTO workflow_definitions (tenant_id, id, name, description, category, featured, credits, enabled, response_kind,
                  executor_kind, executor_config, inputs, timeout_seconds, search_text, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, id) DO UPDATE SET name = excluded.name, description = excluded.description,
                  category = excluded.category, featured = excluded.featured, credits = excluded.credits, enabled = excluded.enabled,
                  response_kind = excluded.response_kind, executor_kind = excluded.executor_kind,
                  executor_config = excluded.executor_config, inputs = excluded.inputs, timeout_seconds = excluded.timeout_seconds,
                  search_text = excluded.search_text, updated_at = excluded.updated_at
                """,
                [.text(tenantID), .text(definition.id), .text(definition.name), .text(definition.description),
                 .text(definition.category), .boolean(definition.featured), .integer(Int64(definition.credits)),
                 .boolean(definition.enabled), .text(definition.response.rawValue), .text(definition.executor.kind),
                 .text(configuration), .text(inputs), .integer(Int64(definition.timeoutSeconds)),
                 .text(Self.searchable(definition.name + " " + definition.description)), now.sqlValue, now.sqlValue])
        }
        return definition
    }

    /// Every definition of the tenant, enabled or not, by id.
    public func definitions(tenantID: String) async throws -> [WorkflowDefinition] {
        try await database.read { db in
            try db.query("SELECT * FROM workflow_definitions WHERE tenant_id = ? ORDER BY id", [.text(tenantID)]).map(Self.definition)
        }
    }

    /// One definition, enabled or not.
    public func definition(tenantID: String, id: String) async throws -> WorkflowDefinition {
        try await database.read { db in try Self.definition(db, tenantID: tenantID, id: id, enabledOnly: false) }
    }

    /// Removes a definition; its runs and their reports stay.
    public func deleteDefinition(tenantID: String, id: String) async throws {
        let invalidations = environment.invalidations
        let removed = try await database.write { db in
            try invalidations.announce(db, cache: Self.catalogueCacheName, key: tenantID)
            return try db.execute("DELETE FROM workflow_definitions WHERE tenant_id = ? AND id = ?", tenantID, id)
        }
        invalidations.drop(cache: Self.catalogueCacheName, key: tenantID)
        if removed == 0 { throw WorkflowError(.notFound, .noSuchWorkflow(id)) }
    }

    static func definition(_ db: any DatabaseConnection, tenantID: String, id: String, enabledOnly: Bool) throws -> WorkflowDefinition {
        guard let row = try db.queryOne("SELECT * FROM workflow_definitions WHERE tenant_id = ? AND id = ?", tenantID, id),
            let definition = try? Self.definition(row), definition.enabled || !enabledOnly
        else { throw WorkflowError(.notFound, .noSuchWorkflow(id)) }
        return definition
    }

    /// The definition `row` holds if it is enabled (nil when there is no row or it is disabled).
    static func enabledDefinition(_ row: Row?) throws -> WorkflowDefinition? {
        guard let row, let definition = try? Self.definition(row), definition.enabled else { return nil }
        return definition
    }

    static func definition(_ row: Row) throws -> WorkflowDefinition {
        WorkflowDefinition(
            id: try row.get("id"), name: try row.get("name"), description: try row.get("description"), category: try row.get("category"),
            featured: try row.get("featured"), credits: try row.get("credits"), enabled: try row.get("enabled"),
            response: WorkflowDefinition.ResponseKind(rawValue: try row.get("response_kind")) ?? .event,
            executor: .init(kind: try row.get("executor_kind"), configuration: try storedConfigurations.value(for: try row.get("executor_config")) {
                try decode(try row.get("executor_config"))
            }),
            inputs: try storedInputs.value(for: try row.get("inputs")) { try decode(try row.get("inputs")) }, timeoutSeconds: try row.get("timeout_seconds"))
    }

    // A definition's JSON columns are read on every catalogue page and run; the same text
    // always decodes to the same value, so each text is decoded once per process.
    private static let storedConfigurations = BoundedMemo<String, [String: JSONValue]>(capacity: 4096)
    private static let storedInputs = BoundedMemo<String, [WorkflowInput]>(capacity: 4096)

    static func encode<T: Encodable>(_ value: T) throws -> String { try StoredJSON.encode(value) }

    static func decode<T: Decodable>(_ text: String) throws -> T { try StoredJSON.decode(text) }

    /// Text folded for search: case and accents dropped, so `resume` finds `Résumé`.
    static func searchable(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}
