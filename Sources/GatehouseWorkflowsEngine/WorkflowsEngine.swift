import Foundation
import GatehouseCore
import GatehouseDatabase

/// Workflows: per-tenant definitions, the catalogue, credit-paid runs kept as durable jobs,
/// and their reports and events (seed 000 §05–§06). No HTTP here; executors are injected.
public final class WorkflowsEngine: Sendable {
    public let environment: Environment
    public let settings: WorkflowSettings
    let billing: any RunBilling
    let executors: [String: any WorkflowExecutor]
    /// Wakes this node's runner when a run is queued here.
    let doorbell = Doorbell()
    /// Wakes report streams and waiting executes when a run of an account changes.
    public let events: RunEventHub
    /// Who holds a claim: this node's own, random per process.
    let nodeID: String
    /// Each tenant's enabled definitions and what gates them, for a few seconds; a definition
    /// or plan change drops the tenant's entry here and, by notice, on the other nodes.
    let catalogues: NodeCache<TenantCatalogue>
    /// The name definition changes are announced under (see ``CacheInvalidations``).
    public static let catalogueCacheName = "workflow-catalogue"
    /// Tenants whose catalogue a node keeps at once; past it the cache starts over.
    static let cataloguesKept = 256

    public init(
        environment: Environment, settings: WorkflowSettings, billing: any RunBilling, events: RunEventHub = RunEventHub(),
        executors: [any WorkflowExecutor]
    ) {
        self.environment = environment
        self.settings = settings
        self.billing = billing
        self.executors = Dictionary(executors.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.events = events
        nodeID = environment.ids.next().uuidString.lowercased()
        catalogues = NodeCache(name: Self.catalogueCacheName, clock: environment.clock, capacity: Self.cataloguesKept)
        environment.invalidations.register(catalogues, alsoFor: [billing.gatingCacheName])
    }

    var database: any Database { environment.database }
    var now: Date { environment.clock.now }

    /// The executor kinds this server can run.
    public var executorKinds: [String] { executors.keys.sorted() }
}
