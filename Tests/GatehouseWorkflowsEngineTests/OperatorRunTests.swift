import Foundation
import GatehouseCore
@testable import GatehouseWorkflowsEngine
import GatehouseTesting
import Testing

/// What an operator sees of runs and does to them: lists, events, outcomes, cancel.
@Suite struct OperatorRunTests {
    @Test(arguments: TestDatabaseKind.available)
    func aCancelledRunEndsOnceWithItsCreditsBack(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 12)
        defer { h.close() }
        try await h.save()
        let queued = try await h.execute().run
        let other = try await h.execute(key: "second").run
        #expect(try await h.balance() == 2)
        #expect(try await h.engine.cancelRun(tenantID: h.tenantID, id: queued.id))
        #expect(try await h.balance() == 7)
        // Once: a second cancel, and the runner's later pass, change nothing.
        #expect(try await !h.engine.cancelRun(tenantID: h.tenantID, id: queued.id))
        try await h.runner.drain()
        #expect(try await h.balance() == 7)
        let found = try #require(try await h.engine.run(tenantID: h.tenantID, id: queued.id))
        #expect(found.run.status == .failed && found.run.errorCode == "CANCELLED" && found.run.creditsRefunded == 5)
        #expect(found.events.map(\.status) == [.queued, .failed])
        #expect(try await h.engine.run(tenantID: h.tenantID, id: other.id)?.run.status == .succeeded)
        // A finished run cannot be cancelled; another tenant's run is not found.
        #expect(try await !h.engine.cancelRun(tenantID: h.tenantID, id: other.id))
        await #expect(throws: WorkflowError.self) { try await h.engine.cancelRun(tenantID: "another-tenant", id: other.id) }
        #expect(try await h.engine.run(tenantID: "another-tenant", id: other.id) == nil)
        var filter = RunListFilter(tenantID: h.tenantID)
        #expect(try await h.engine.runs(filter).map(\.id) == [other.id, queued.id])
        filter.status = .failed
        #expect(try await h.engine.runs(filter).map(\.id) == [queued.id])
        let outcomes = try await h.engine.runOutcomes(tenantID: h.tenantID, since: h.clock.now.addingTimeInterval(-60))
        #expect(outcomes.byStatus == [.failed: 1, .succeeded: 1])
    }
}
