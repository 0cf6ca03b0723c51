import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import GatehouseWiring
import Testing
@testable import GatehouseWorkflowsEngine

/// The catalogue and a workflow's detail are answered from this node's copy of the tenant's
/// enabled definitions and gating plans: a hot catalogue costs no query, a definition or plan
/// changed here is seen at once, one changed on another node as soon as its notice arrives,
/// and the filters answer exactly as the SQL they replace.
@Suite struct CatalogueCacheTests {
    static func definition(_ id: String, name: String, category: String = "security", featured: Bool = false) -> WorkflowDefinition {
        var definition = WorkflowsHarness.definition(id)
        definition.name = name
        definition.category = category
        definition.featured = featured
        return definition
    }

    static func ids(_ page: CataloguePage) -> [String] { page.workflows.map(\.id) }

    @Test(arguments: TestDatabaseKind.available)
    func aHotCatalogueCostsNoQueryAndEveryChangeHereIsSeenAtOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, countingTransactions: true)
        defer { h.close() }
        let counting = try #require(h.counting)
        try await h.save(Self.definition("wf-a", name: "Alpha"))
        try await h.save(Self.definition("wf-b", name: "Beta"))
        func catalogue() async throws -> CataloguePage {
            try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 20, CatalogueQuery())
        }
        #expect(Self.ids(try await catalogue()) == ["wf-a", "wf-b"])
        let reads = counting.reads
        #expect(Self.ids(try await catalogue()) == ["wf-a", "wf-b"])
        #expect(try await h.engine.workflow(tenantID: h.tenantID, id: "wf-b").definition.name == "Beta")
        #expect(try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 20, CatalogueQuery(search: "alp")).total == 1)
        #expect(counting.reads == reads)

        var disabled = Self.definition("wf-a", name: "Alpha")
        disabled.enabled = false
        try await h.save(disabled)
        #expect(Self.ids(try await catalogue()) == ["wf-b"])
        await #expect(throws: WorkflowError(.notFound, .noSuchWorkflow("wf-a"))) { try await h.engine.workflow(tenantID: h.tenantID, id: "wf-a") }

        let plan = try await h.commerce.createPlan(
            tenantID: h.tenantID, displayName: "Pro", interval: .monthly, appleProductID: "pro.monthly", gatedWorkflowID: "wf-b")
        #expect(try await catalogue().gated == ["wf-b"])
        #expect(try await h.engine.workflow(tenantID: h.tenantID, id: "wf-b").gated)
        try await h.commerce.deletePlan(tenantID: h.tenantID, productID: plan.productId)
        #expect(try await catalogue().gated.isEmpty)

        try await h.engine.deleteDefinition(tenantID: h.tenantID, id: "wf-b")
        #expect(try await catalogue().total == 0)
        // A refused save changes nothing, and the next read still answers.
        await #expect(throws: CoreError.self) { try await h.engine.saveDefinition(tenantID: "no-such-tenant", Self.definition("wf-c", name: "C")) }
        #expect(try await catalogue().total == 0)
    }

    /// A change nobody announced (a row edited by hand) is seen once the entry's seconds are over.
    @Test(arguments: TestDatabaseKind.available)
    func anUnannouncedChangeIsSeenWhenTheEntryExpires(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind)
        defer { h.close() }
        try await h.save(Self.definition("wf-a", name: "Alpha"))
        #expect(try await h.engine.workflow(tenantID: h.tenantID, id: "wf-a").definition.name == "Alpha")
        try await h.store.database.write { db in try db.execute("UPDATE workflow_definitions SET name = 'Renamed'") }
        #expect(try await h.engine.workflow(tenantID: h.tenantID, id: "wf-a").definition.name == "Alpha")
        h.clock.advance(by: 5)
        #expect(try await h.engine.workflow(tenantID: h.tenantID, id: "wf-a").definition.name == "Renamed")
    }

    /// Tenant A's catalogue is kept on the node; tenant B has the same definitions and more than
    /// a node keeps, so it is read by SQL. Every filter answers the same for both, byte for
    /// byte: a category written composed is not the one written decomposed, and a search's
    /// `%`, `_` and `\` are literal.
    @Test(arguments: TestDatabaseKind.available)
    func theKeptCatalogueAnswersAsTheDatabaseDoes(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind)
        defer { h.close() }
        let other = try await TenantDirectory(environment: h.engine.environment).createTenant(name: "Other").id
        let definitions = [
            Self.definition("wf-1", name: "Résumé review", category: "caf\u{E9}"),
            Self.definition("wf-2", name: "Cafe\u{301} menu", category: "cafe\u{301}", featured: true),
            Self.definition("wf-3", name: "50% off", category: "deals"),
            Self.definition("wf-4", name: "a_b test", category: "deals", featured: true),
            Self.definition("wf-5", name: "Path c:\\temp", category: "Deals"),
            Self.definition("wf-6", name: "apple", category: "fruit"),
            Self.definition("wf-7", name: "Banana", category: "fruit"),
            Self.definition("wf-8", name: "éclair", category: "fruit"),
            Self.definition("wf-9", name: "Zed", category: "fruit"),
        ]
        for definition in definitions {
            try await h.engine.saveDefinition(tenantID: h.tenantID, definition)
            try await h.engine.saveDefinition(tenantID: other, definition)
        }
        // More than a node keeps, none of them matching the filters below (no search of ours
        // is in "zz filler filler", as every search looks in the description too).
        try await h.store.database.write { db in
            for index in 0...TenantCatalogue.largestKept {
                try db.execute(
                    """
                    INSERT INTO workflow_definitions (tenant_id, id, name, description, category, featured, credits, enabled, response_kind,
                      executor_kind, executor_config, inputs, timeout_seconds, search_text, created_at, updated_at)
                    SELECT tenant_id, ?, 'zz filler', 'filler', 'filler', featured, credits, enabled, response_kind, executor_kind,
                      executor_config, inputs, timeout_seconds, 'zz filler', created_at, updated_at
                    FROM workflow_definitions WHERE tenant_id = ? AND id = 'wf-9'
                    """, "filler-\(index)", other)
            }
        }
        _ = try await h.commerce.createPlan(
            tenantID: h.tenantID, displayName: "Pro", interval: .monthly, appleProductID: "pro.monthly", gatedWorkflowID: "wf-3")
        _ = try await h.commerce.createPlan(
            tenantID: other, displayName: "Pro", interval: .monthly, appleProductID: "pro.monthly", gatedWorkflowID: "wf-3")
        #expect(try await h.engine.tenantCatalogue(h.tenantID).complete)
        #expect(try await !h.engine.tenantCatalogue(other).complete)

        let searches: [String?] = [nil, "%", "_", "50%", "a_b", "\\", "c:\\t", "RÉSUMÉ", "  review ", "cafe\u{301}", "ca", "ÉCLAIR"]
        let categories: [String?] = [nil, "caf\u{E9}", "cafe\u{301}", "deals", "Deals", "fruit", "none"]
        for search in searches {
            for category in categories {
                for featured in [nil, true, false] {
                    let query = CatalogueQuery(search: search, category: category, featured: featured)
                    // Without a filter tenant B's fillers are in the answer; those queries are compared by featured only.
                    if search == nil, category == nil, featured != true { continue }
                    for page in 1...3 {
                        let kept = try await h.engine.catalogue(tenantID: h.tenantID, page: page, pageSize: 2, query)
                        let read = try await h.engine.catalogue(tenantID: other, page: page, pageSize: 2, query)
                        #expect(Self.ids(kept) == Self.ids(read), "\(query) page \(page)")
                        #expect(kept.total == read.total, "\(query)")
                        #expect(kept.gated == read.gated)
                    }
                }
            }
        }
        let composed = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 10, CatalogueQuery(category: "caf\u{E9}"))
        #expect(Self.ids(composed) == ["wf-1"])
        let literal = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 10, CatalogueQuery(search: "_"))
        #expect(Self.ids(literal) == ["wf-4"])
        for id in ["wf-1", "wf-3", "wf-10", "WF-1", "wf-1\u{301}"] {
            let kept = try? await h.engine.workflow(tenantID: h.tenantID, id: id)
            let read = try? await h.engine.workflow(tenantID: other, id: id)
            #expect(kept?.definition == read?.definition && kept?.gated == read?.gated, "\(id)")
        }
    }

    /// Two nodes on one PostgreSQL: a definition or a gating plan changed on one is seen on the
    /// other as soon as the notice arrives, long before the entry expires.
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func changesReachTheOtherNode() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let nodes = try await TwoPostgresNodes.onFreshDatabase(migrations: EngineMigrations.all, clock: clock)
        let settings = WorkflowSettings(filesDirectory: FileManager.default.temporaryDirectory)
        let commerceA = CommerceEngine(environment: nodes.environmentA)
        let a = WorkflowsEngine(environment: nodes.environmentA, settings: settings, billing: commerceA, executors: [ScriptedExecutor()])
        let b = WorkflowsEngine(
            environment: nodes.environmentB, settings: settings, billing: CommerceEngine(environment: nodes.environmentB),
            executors: [ScriptedExecutor()])
        let tenantID = try await TenantDirectory(environment: nodes.environmentA).createTenant(name: "Acme").id
        func onB() async throws -> CataloguePage { try await b.catalogue(tenantID: tenantID, page: 1, pageSize: 20, CatalogueQuery()) }
        #expect(try await onB().total == 0)

        try await a.saveDefinition(tenantID: tenantID, Self.definition("wf-a", name: "Alpha"))
        await nodes.bInvalidations.waitForReceived(1)
        #expect(Self.ids(try await onB()) == ["wf-a"])

        let plan = try await commerceA.createPlan(
            tenantID: tenantID, displayName: "Pro", interval: .monthly, appleProductID: "pro.monthly", gatedWorkflowID: "wf-a")
        await nodes.bInvalidations.waitForReceived(2)
        #expect(try await onB().gated == ["wf-a"])
        try await commerceA.deletePlan(tenantID: tenantID, productID: plan.productId)
        await nodes.bInvalidations.waitForReceived(3)
        #expect(try await b.workflow(tenantID: tenantID, id: "wf-a").gated == false)

        try await a.deleteDefinition(tenantID: tenantID, id: "wf-a")
        await nodes.bInvalidations.waitForReceived(4)
        #expect(try await onB().total == 0)
        await nodes.close()
    }
}
