import Foundation
import GatehouseDatabase

/// One page of a tenant's catalogue.
public struct CataloguePage: Sendable, Equatable {
    public let workflows: [WorkflowDefinition]
    /// Ids among them that a plan gates.
    public let gated: Set<String>
    public let page: Int
    public let pageSize: Int
    public let total: Int
    public var totalPages: Int { total == 0 ? 0 : (total + pageSize - 1) / pageSize }
}

/// What a signed-in user sees: the tenant's enabled workflows.
public struct CatalogueQuery: Sendable, Equatable {
    /// Found in name or description, ignoring case and accents.
    public var search: String?
    public var category: String?
    public var featured: Bool?
    public init(search: String? = nil, category: String? = nil, featured: Bool? = nil) {
        self.search = search
        self.category = category
        self.featured = featured
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension WorkflowsEngine {
    /// The largest page the catalogue and the history answer.
    public static let maxPageSize = 100

    public func catalogue(tenantID: String, page: Int, pageSize: Int, _ query: CatalogueQuery) async throws -> CataloguePage {
        try Self.checkPaging(page: page, pageSize: pageSize)
        var conditions = ["tenant_id = ?", "enabled = ?"]
        var arguments: [SQLValue] = [.text(tenantID), .boolean(true)]
        if let search = query.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            guard search.count <= 200 else { throw WorkflowError(.inputInvalid, .field("search", .length(0...200))) }
            conditions.append("search_text LIKE ? ESCAPE '\\'")
            arguments.append(.text("%" + Self.likeEscaped(Self.searchable(search)) + "%"))
        }
        if let category = query.category, !category.isEmpty {
            conditions.append("category = ?")
            arguments.append(.text(category))
        }
        if let featured = query.featured {
            conditions.append("featured = ?")
            arguments.append(.boolean(featured))
        }
        let catalogue = try await tenantCatalogue(tenantID)
        if catalogue.complete {
            let search = query.search?.trimmingCharacters(in: .whitespaces).nonEmpty.map(Self.searchable)
            return catalogue.page(page, pageSize: pageSize, search: search, category: query.category?.nonEmpty, featured: query.featured)
        }
        let filter = conditions.joined(separator: " AND ")
        let (arguments2, billing) = (arguments, self.billing)
        return try await database.read { db in
            // The count and the page go with the plans' query: one round trip for the three.
            let count = try db.send("SELECT COUNT(*) AS n FROM workflow_definitions WHERE " + filter, arguments2)
            let rows = try db.send(
                "SELECT * FROM workflow_definitions WHERE \(filter) ORDER BY featured DESC, name, id LIMIT ? OFFSET ?",
                arguments2 + [.integer(Int64(pageSize)), .integer(Int64((page - 1) * pageSize))])
            let gated = try billing.gatedWorkflows(db, tenantID: tenantID)
            let total: Int = try count.rows()[0].get("n")
            return CataloguePage(
                workflows: try rows.rows().map(Self.definition), gated: gated, page: page, pageSize: pageSize, total: total)
        }
    }

    /// An enabled workflow of the tenant, with whether a plan gates it.
    public func workflow(tenantID: String, id: String) async throws -> (definition: WorkflowDefinition, gated: Bool) {
        let catalogue = try await tenantCatalogue(tenantID)
        if catalogue.complete {
            guard let found = catalogue.workflow(id) else { throw WorkflowError(.notFound, .noSuchWorkflow(id)) }
            return found
        }
        let billing = self.billing
        return try await database.read { db in
            // The definition goes with the plans' query: one round trip for both.
            let row = try db.send("SELECT * FROM workflow_definitions WHERE tenant_id = ? AND id = ?", tenantID, id)
            let gated = try billing.gatedWorkflows(db, tenantID: tenantID).contains(id)
            guard let definition = try Self.enabledDefinition(row.rows().first) else { throw WorkflowError(.notFound, .noSuchWorkflow(id)) }
            return (definition, gated)
        }
    }

    static func checkPaging(page: Int, pageSize: Int) throws {
        guard page >= 1, page <= 1_000_000 else { throw WorkflowError(.inputInvalid, .field("page", .wholeNumberFrom(1, to: nil))) }
        guard (1...maxPageSize).contains(pageSize) else {
            throw WorkflowError(.inputInvalid, .field("pageSize", .wholeNumberFrom(1, to: maxPageSize)))
        }
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
