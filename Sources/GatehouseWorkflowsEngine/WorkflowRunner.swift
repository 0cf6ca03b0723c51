import Foundation
import GatehouseCore

// Safe: `stopped` is only read and written under `lock`; `engine` and `inFlight` are `let`s of Sendable types (InFlight
// locks its own state).
/// The worker that runs workflow runs: claims due runs, hands each to its executor with the
/// run's deadline, renews the claim while the executor works, and records how it ended.
/// The server runs one per node (`run()` until `stop()`); tests call `drain()`, which returns
/// once every due run has been executed and recorded.
public final class WorkflowRunner: @unchecked Sendable {
    let engine: WorkflowsEngine
    private let lock = NSLock()
    private var stopped = false
    private let inFlight = InFlight()

    public init(engine: WorkflowsEngine) {
        self.engine = engine
    }

    /// Runs until `stop()`: woken at once by executes on this node, polling for runs other
    /// nodes queued. In-flight runs are not waited for by the loop: each claim is run in
    /// its own child task so that a long run does not hold up the next claim.
    public func run() async {
        do { try await engine.recoverAfterRestart() } catch {
            engine.environment.logger.warning("workflow recovery failed", ["error": "\(error)"])
        }
        // Discarding: a server runs for months, and finished children must not pile up.
        await withDiscardingTaskGroup { group in
            while !isStopped, !Task.isCancelled {
                var claimed: [ClaimedRun] = []
                do { claimed = try await claim() } catch {
                    engine.environment.logger.warning("workflow claim failed", ["error": "\(error)"])
                }
                for run in claimed {
                    group.addTask { await self.execute(run) }
                }
                if !claimed.isEmpty { continue }
                if isStopped { break }
                await engine.doorbell.wait(upTo: engine.settings.pollInterval, clock: engine.environment.clock)
            }
        }
    }

    /// Makes `run()` return once the runs in hand have ended.
    public func stop() {
        lock.withLock { stopped = true }
        engine.doorbell.ring()
    }

    /// Runs everything due now, to the end, then waits until nothing is in flight here.
    public func drain() async throws {
        while true {
            let claimed = try await claim()
            if claimed.isEmpty { break }
            await withTaskGroup(of: Void.self) { group in
                for run in claimed { group.addTask { await self.execute(run) } }
            }
        }
        await inFlight.untilIdle()
    }

    /// Up to a batch, within what this node may still take on.
    private func claim() async throws -> [ClaimedRun] {
        let room = engine.settings.maxRunsPerNode - inFlight.count
        guard room > 0 else { return [] }
        let limit = min(engine.settings.batchSize, room)
        // Counted before the claim, so that `drain()` never finds the node idle while a claim
        // has committed and its runs are not counted yet (their events would come after it);
        // what the claim did not take is let go, and each `execute` ends with `inFlight.leave()`.
        inFlight.enter(limit)
        do {
            let claimed = try await engine.claimRuns(limit: limit)
            inFlight.leave(limit - claimed.count)
            return claimed
        } catch {
            inFlight.leave(limit)
            throw error
        }
    }

    /// One attempt: the executor races the deadline, and the lease is renewed meanwhile.
    func execute(_ claimed: ClaimedRun) async {
        defer { inFlight.leave() }
        let invocation = claimed.invocation
        guard let executor = engine.executors[invocation.workflow.executor.kind] else {
            await record(invocation, .executor(.failed(code: "EXECUTOR_UNAVAILABLE", message: "This server cannot run \(invocation.workflow.executor.kind) workflows.")))
            return
        }
        let (engine, clock) = (self.engine, self.engine.environment.clock)
        let ending: RunEnding = await withTaskGroup(of: RunEnding?.self) { group in
            group.addTask { .executor(await executor.execute(invocation)) }
            group.addTask {
                try? await clock.sleep(until: invocation.deadline)
                return Task.isCancelled ? nil : .timedOut
            }
            group.addTask {
                let every = engine.settings.leaseSeconds / 3
                while !Task.isCancelled {
                    try? await clock.sleep(for: every)
                    if Task.isCancelled { break }
                    try? await engine.renewLease(runID: invocation.runID, attempt: invocation.attempt)
                }
                return nil
            }
            var ending: RunEnding = .timedOut
            while let next = await group.next() {
                if let next {
                    ending = next
                    break
                }
            }
            group.cancelAll()
            return ending
        }
        await record(invocation, ending)
    }

    private func record(_ invocation: RunInvocation, _ ending: RunEnding) async {
        do {
            try await engine.finish(runID: invocation.runID, attempt: invocation.attempt, ending)
        } catch {
            // The lease lapses and the sweeper settles the run.
            engine.environment.logger.warning("recording a workflow run failed", ["error": "\(error)"])
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }
}
