import Foundation
import GatehouseDatabase

/// A tenant's enabled definitions in the catalogue's order, and the ids its plans gate, as a
/// node keeps them between changes: a catalogue page or a workflow's detail is then filtered
/// and cut from memory instead of read.
///
/// The filters compare as the SQL of ``WorkflowsEngine/catalogue(tenantID:page:pageSize:_:)``
/// does on both databases, byte for byte: `category = ?` and `search_text LIKE '%…%'` over
/// folded text are exact byte comparisons there, so `é` written composed does not match `é`
/// written decomposed here either (Swift's `==` would say they are equal).
struct TenantCatalogue: Sendable {
    /// Past this many enabled definitions a tenant's catalogue is read page by page instead:
    /// with at most ``WorkflowsEngine/cataloguesKept`` tenants kept, a node holds at most
    /// 128,000 definitions (their JSON columns decoded once and shared).
    static let largestKept = 500

    struct Entry: Sendable {
        let definition: WorkflowDefinition
        /// `search_text` as stored: name and description folded by `WorkflowsEngine.searchable`.
        let searchText: String
    }

    /// In `featured DESC, name, id` order as the database sorted them (a row that no longer
    /// decodes is left out, as the detail of one is not found); empty when not ``complete``.
    let entries: [Entry]
    let gated: Set<String>
    /// False when the tenant has more than ``largestKept``: its catalogue is read from the database.
    let complete: Bool

    /// One page of the entries that pass the filters.
    func page(_ page: Int, pageSize: Int, search: String?, category: String?, featured: Bool?) -> CataloguePage {
        let needle = search.map { Array($0.utf8) }
        let matching = entries.filter { entry in
            if let category, !entry.definition.category.utf8.elementsEqual(category.utf8) { return false }
            if let featured, entry.definition.featured != featured { return false }
            if let needle, !Self.bytes(of: entry.searchText, contain: needle) { return false }
            return true
        }
        let start = min((page - 1) * pageSize, matching.count)
        let end = min(start + pageSize, matching.count)
        return CataloguePage(
            workflows: matching[start..<end].map(\.definition), gated: gated, page: page, pageSize: pageSize, total: matching.count)
    }

    /// The enabled definition `id` and whether a plan gates it; nil when there is none.
    func workflow(_ id: String) -> (definition: WorkflowDefinition, gated: Bool)? {
        guard let entry = entries.first(where: { $0.definition.id.utf8.elementsEqual(id.utf8) }) else { return nil }
        return (entry.definition, gated.contains(entry.definition.id))
    }

    /// Whether `needle` occurs in `text`'s UTF-8 bytes (LIKE with the needle's wildcards escaped).
    static func bytes(of text: String, contain needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        var text = text
        return text.withUTF8 { haystack in
            guard haystack.count >= needle.count else { return false }
            let first = needle[0]
            for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            return false
        }
    }
}

extension WorkflowsEngine {
    /// The tenant's catalogue as this node keeps it, read when it is not kept or too old.
    func tenantCatalogue(_ tenantID: String) async throws -> TenantCatalogue {
        let now = self.now
        if let hit = catalogues.cached(tenantID, now: now) { return hit }
        let started = catalogues.currentGeneration
        let billing = self.billing
        let loaded = try await database.read { db -> TenantCatalogue in
            // The definitions go with the plans' query: one round trip for both.
            let rows = try db.send(
                "SELECT * FROM workflow_definitions WHERE tenant_id = ? AND enabled = ? ORDER BY featured DESC, name, id LIMIT ?",
                [.text(tenantID), .boolean(true), .integer(Int64(TenantCatalogue.largestKept + 1))])
            let gated = try billing.gatedWorkflows(db, tenantID: tenantID)
            let read = try rows.rows()
            guard read.count <= TenantCatalogue.largestKept else { return TenantCatalogue(entries: [], gated: gated, complete: false) }
            let entries = read.compactMap { row -> TenantCatalogue.Entry? in
                guard let definition = try? Self.definition(row), let searchText: String = try? row.get("search_text") else { return nil }
                return TenantCatalogue.Entry(definition: definition, searchText: searchText)
            }
            return TenantCatalogue(entries: entries, gated: gated, complete: true)
        }
        catalogues.store(loaded, for: tenantID, loadedIn: started, now: now)
        return loaded
    }
}
