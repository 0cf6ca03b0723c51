import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseWorkflowsEngine

@Suite struct ExecuteAndCreditsTests {
    @Test(arguments: TestDatabaseKind.available)
    func aRunIsChargedOnceAndASuccessKeepsTheCredits(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 12)
        defer { h.close() }
        try await h.save()
        let outcome = try await h.execute()
        #expect(outcome.run.status == .queued)
        #expect(outcome.response == .event)
        #expect(try await h.balance() == 7)
        try await h.runner.drain()
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: outcome.run.id)
        #expect(report.status == .succeeded)
        #expect(report.result == .object(["echo": .object(["url": "https://example.com"])]))
        #expect(report.startedAt != nil && report.finishedAt != nil)
        #expect(try await h.balance() == 7)
        let events = try await h.engine.events(tenantID: h.tenantID, accountID: h.accountID, after: 0)
        #expect(events.map(\.event.seq) == [1, 2, 3])
        #expect(events.map(\.event.status) == [.queued, .running, .succeeded])
    }

    @Test(arguments: TestDatabaseKind.available)
    func aShortWalletIsRefusedWithItsBalanceAndNothingIsQueued(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 3)
        defer { h.close() }
        try await h.save()
        await #expect(throws: WorkflowError(.insufficientCredits(balance: 3), .insufficientCredits(cost: 5, balance: 3))) {
            try await h.execute()
        }
        await #expect(throws: WorkflowError(.insufficientCredits(balance: 0), .insufficientCredits(cost: 5, balance: 0))) {
            try await h.execute(account: "acct-empty")
        }
        #expect(try await h.engine.history(tenantID: h.tenantID, accountID: h.accountID, page: 1, pageSize: 10).total == 0)
    }

    @Test(arguments: TestDatabaseKind.available)
    func failuresAndWorkerRefusalsGiveTheCreditsBackExactlyOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10)
        defer { h.close() }
        try await h.save()
        h.executor.answer(.failed(code: "WORKER_REFUSED", message: "The worker refused the run (422)."))
        let run = try await h.execute().run
        #expect(try await h.balance() == 5)
        try await h.runner.drain()
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(report.status == .failed && report.errorCode == "WORKER_REFUSED" && report.creditsRefunded == 5)
        #expect(try await h.balance() == 10)
        // A late callback for the finished run, and a second sweep, change nothing.
        #expect(try await h.engine.complete(runID: run.id, tenantID: h.tenantID, .failed(code: "X", message: "again")) == false)
        try await h.engine.sweep()
        #expect(try await h.balance() == 10)
        #expect(h.executor.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func retriesBackOffAndStopAfterTheirAttempts(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10) { $0.maxAttempts = 3 }
        defer { h.close() }
        try await h.save()
        h.executor.answer(.retry(code: "WORKER_UNAVAILABLE", message: "503"), .retry(code: "WORKER_UNAVAILABLE", message: "503"))
        let run = try await h.execute().run
        try await h.runner.drain()
        #expect(try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id).status == .queued)
        try await h.runner.drain()
        #expect(h.executor.count == 1)  // not due yet
        h.clock.advance(by: 2)
        try await h.runner.drain()
        h.clock.advance(by: 8)
        try await h.runner.drain()
        let done = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(done.status == .succeeded && done.attempts == 3 && h.executor.count == 3)
        #expect(try await h.balance() == 5)

        h.executor.answer(.retry(code: "A", message: "1"), .retry(code: "A", message: "2"), .retry(code: "A", message: "3"))
        let doomed = try await h.execute().run
        for _ in 0..<3 {
            try await h.runner.drain()
            h.clock.advance(by: 100)
        }
        let failed = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: doomed.id)
        #expect(failed.status == .failed && failed.errorMessage == "3" && failed.creditsRefunded == 5)
        #expect(try await h.balance() == 5)
    }

    /// The runner's deadline is the engine's clock's: an attempt still running when that clock
    /// passes it ends as timed out, with no real time spent waiting.
    @Test(arguments: TestDatabaseKind.available)
    func anAttemptStillRunningAtItsDeadlineTimesOutOnTheEnginesClock(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10)
        defer { h.close() }
        try await h.save(WorkflowsHarness.definition(timeout: 60))
        h.executor.hold = Latch()
        let run = try await h.execute().run
        let draining = Task { try await h.runner.drain() }
        await h.executor.started.wait()
        await h.clock.waitForSleepers(2)  // the deadline, and the lease's renewal
        h.clock.advance(by: 59)
        await h.clock.waitForSleepers(2)  // renewed, and still short of the deadline
        #expect(try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id).status == .running)
        h.clock.advance(by: 2)
        try await draining.value
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(report.status == .timedOut && report.errorCode == "TIMED_OUT" && report.creditsRefunded == 5)
        #expect(try await h.balance() == 10)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aRunPastItsDeadlineTimesOutAndIsRefundedOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10)
        defer { h.close() }
        try await h.save(WorkflowsHarness.definition(timeout: 60))
        h.executor.answer(.awaitingCallback)
        let run = try await h.execute().run
        try await h.runner.drain()
        #expect(try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id).status == .running)
        h.clock.advance(by: 59)
        #expect(try await h.engine.sweep() == 0)
        h.clock.advance(by: 2)
        #expect(try await h.engine.sweep() == 1)
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(report.status == .timedOut && report.errorCode == "TIMED_OUT" && report.creditsRefunded == 5)
        #expect(try await h.balance() == 10)
        #expect(try await h.engine.complete(runID: run.id, tenantID: h.tenantID, .succeeded(.null)) == false)
        #expect(try await h.engine.sweep() == 0)
        #expect(try await h.balance() == 10)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aCallbackFinishesARunOnceAndOnlyForItsTenant(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10)
        defer { h.close() }
        try await h.save()
        h.executor.answer(.awaitingCallback)
        let run = try await h.execute().run
        try await h.runner.drain()
        #expect(try await h.engine.complete(runID: run.id, tenantID: "another-tenant", .succeeded(.string("x"))) == false)
        #expect(try await h.engine.complete(runID: run.id, tenantID: h.tenantID, .succeeded(.object(["score": .number(9)]))))
        #expect(try await h.engine.complete(runID: run.id, tenantID: h.tenantID, .failed(code: "LATE", message: "late")) == false)
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(report.status == .succeeded && report.result == .object(["score": .number(9)]))
        #expect(try await h.balance() == 5)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aNodeThatDiesLeavesItsRunToTheNextClaim(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10)
        defer { h.close() }
        try await h.save()
        let run = try await h.execute().run
        // A node claims the run and dies: nothing records its end.
        let claimed = try await h.engine.claimRuns(limit: 1)
        #expect(claimed.map(\.invocation.runID) == [run.id])
        #expect(try await h.engine.claimRuns(limit: 1).isEmpty)
        h.clock.advance(by: 31)
        #expect(try await h.engine.sweep() == 1)
        try await h.runner.drain()
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(report.status == .succeeded && report.attempts == 2)
        #expect(try await h.balance() == 5)
        // The dead node's late answer for its attempt changes nothing.
        try await h.engine.finish(runID: run.id, attempt: 1, .executor(.failed(code: "LATE", message: "late")))
        #expect(try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id).status == .succeeded)
        #expect(try await h.balance() == 5)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aGatedWorkflowNeedsATrialOrPlanBeforeAnythingIsCharged(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10)
        defer { h.close() }
        try await h.save()
        _ = try await h.commerce.createPlan(
            tenantID: h.tenantID, displayName: "Pro", interval: .monthly, appleProductID: "com.example.pro", gatedWorkflowID: "wf-sec-001")
        await #expect(throws: WorkflowError(.entitlementInactive, .entitlementInactive(trialStarted: false))) { try await h.execute() }
        #expect(try await h.balance() == 10)
        #expect(try await h.engine.workflow(tenantID: h.tenantID, id: "wf-sec-001").gated)
        _ = try await h.commerce.updateTrialConfig(tenantID: h.tenantID, iosEnabled: true, iosDurationDays: 3)
        _ = try await h.commerce.startTrial(tenantID: h.tenantID, accountID: h.accountID)
        _ = try await h.execute()
        #expect(try await h.balance() == 5)
        h.clock.advance(by: 4 * 86_400)
        await #expect(throws: WorkflowError(.entitlementInactive, .entitlementInactive(trialStarted: true))) { try await h.execute() }
    }

    @Test(arguments: TestDatabaseKind.available)
    func anIdempotencyKeyAnswersTheFirstRunAndChargesOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 20)
        defer { h.close() }
        try await h.save()
        let first = try await h.execute(key: "retry-1")
        let again = try await h.execute(key: "retry-1")
        #expect(again.replayed && again.run.id == first.run.id)
        #expect(try await h.balance() == 15)
        await #expect(throws: WorkflowError(.idempotencyKeyReused, .idempotencyKeyReused)) {
            try await h.execute(input: ["url": "https://other.example"], key: "retry-1")
        }
        // Another account's same key is its own.
        _ = try await h.commerce.grantCredits(tenantID: h.tenantID, accountID: "acct-2", credits: 5)
        #expect(try await h.execute(account: "acct-2", key: "retry-1").run.id != first.run.id)
        // Concurrent duplicates: one run, one charge.
        let runs = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await h.execute(key: "burst").run.id } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(runs.count == 1)
        #expect(try await h.balance() == 10)
        // After the retention, the key is a new request.
        h.clock.advance(by: 86_401)
        try await h.engine.sweep()
        #expect(try await h.execute(key: "retry-1").run.id != first.run.id)
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentExecutesNeverTakeTheWalletBelowZero(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 23)
        defer { h.close() }
        try await h.save()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<12 { group.addTask { (try? await h.execute()) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 4)
        #expect(try await h.balance() == 3)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aTenantAtItsLimitDoesNotHoldUpAnotherTenant(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 100) { $0.defaultConcurrency = 1; $0.batchSize = 2 }
        defer { h.close() }
        try await h.save()
        h.executor.answer(.awaitingCallback)
        for _ in 0..<5 { _ = try await h.execute() }  // tenant A: one runs, four wait
        try await h.runner.drain()
        #expect(h.executor.count == 1)
        let other = try await TenantDirectory(environment: h.engine.environment).createTenant(name: "Other").id
        try await h.engine.saveDefinition(tenantID: other, WorkflowsHarness.definition(credits: 0))
        let run = try await h.engine.execute(ExecuteCommand(tenantID: other, accountID: "b-1", workflowID: "wf-sec-001", input: ["url": "https://b.example"]))
        try await h.runner.drain()
        #expect(try await h.engine.report(tenantID: other, accountID: "b-1", eventID: run.run.id).status == .succeeded)
    }

    @Test(arguments: [TestDatabaseKind.sqlite])
    func aRunThatKeepsKillingItsServerFailsOnceItsAttemptsAreSpent(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 10) { $0.maxAttempts = 2 }
        defer { h.close() }
        try await h.save()
        let run = try await h.execute().run
        for attempt in 1...2 {
            // Claimed by a process that then dies; the next process recovers it at start.
            let dead = WorkflowsEngine(environment: h.engine.environment, settings: h.engine.settings, billing: h.commerce, executors: [h.executor])
            #expect(try await dead.claimRuns(limit: 1).map(\.invocation.attempt) == [attempt])
            try await h.engine.recoverAfterRestart()
        }
        let report = try await h.engine.report(tenantID: h.tenantID, accountID: h.accountID, eventID: run.id)
        #expect(report.status == .failed && report.errorCode == "NODE_LOST" && report.creditsRefunded == 5)
        #expect(try await h.balance() == 10)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aTenantsConcurrencyLimitHoldsRunsInTheQueue(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 100)
        defer { h.close() }
        try await h.save()
        var patch = WorkflowTenantSettingsPatch()
        patch.maxConcurrentRuns = 2
        _ = try await h.engine.updateTenantSettings(tenantID: h.tenantID, patch)
        h.executor.answer(.awaitingCallback, .awaitingCallback)
        for _ in 0..<3 { _ = try await h.execute() }
        try await h.runner.drain()
        #expect(h.executor.count == 2)
        let history = try await h.engine.history(tenantID: h.tenantID, accountID: h.accountID, page: 1, pageSize: 10)
        #expect(history.runs.map(\.status).sorted { $0.rawValue < $1.rawValue } == [.queued, .running, .running])
        let running = history.runs.first { $0.status == .running }!
        #expect(try await h.engine.complete(runID: running.id, tenantID: h.tenantID, .succeeded(.null)))
        try await h.runner.drain()
        #expect(h.executor.count == 3)
    }
}
