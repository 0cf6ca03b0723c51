import Foundation
import GatehouseCore

// Safe: `stopped` is only read and written under `lock`; `engine` and `inFlight` are `let`s of Sendable types (InFlight
// locks its own state).
/// The worker that sends verification codes. A start writes its delivery as a row in the
/// start's transaction; a dispatcher claims due rows (`FOR UPDATE SKIP LOCKED` on
/// PostgreSQL, so dispatchers on many nodes never take the same row), renders and delivers
/// each, and records the verification as dispatched or failed. A claim is a lease: when a
/// node dies mid-delivery its rows fall due again after `dispatchRetryAfter` and any node's
/// dispatcher takes them, up to `deliveryAttempts` claims.
///
/// The server runs one per node (`run()` until `stop()`). Tests call `drain()`, which
/// returns once every due delivery has been handed over and recorded.
public final class DeliveryDispatcher: @unchecked Sendable {
    let engine: VerificationEngine
    private let lock = NSLock()
    private var stopped = false
    private let inFlight = InFlight()

    public init(engine: VerificationEngine) {
        self.engine = engine
    }

    /// Delivers until `stop()`: woken at once by starts on this node, and looking every
    /// `deliveryPollInterval` for deliveries that other nodes left.
    /// Each pass first writes the counts this node's starts hold (``VerificationEngine/flushCounts()``):
    /// the starts that ring it are the ones that counted. The last pass writes what is left.
    public func run() async {
        while !isStopped, !Task.isCancelled {
            await flushCounts()
            do {
                if try await deliverBatch() > 0 { continue }
            } catch {
                engine.environment.logger.warning("delivery claim failed", ["error": "\(error)"])
            }
            if isStopped { break }
            await engine.doorbell.wait(upTo: engine.settings.deliveryPollInterval, clock: engine.environment.clock)
        }
        await flushCounts()
    }

    private func flushCounts() async {
        do {
            try await engine.flushCounts()
        } catch {
            engine.environment.logger.warning("verification counts not written yet", ["error": "\(error)"])
        }
    }

    /// Makes `run()` return after the batch in hand.
    public func stop() {
        lock.withLock { stopped = true }
        engine.doorbell.ring()
    }

    /// Delivers everything due now, then waits until this dispatcher (including a `run()`
    /// of it) has nothing in flight.
    public func drain() async throws {
        try await engine.flushCounts()
        while try await deliverBatch() > 0 {}
        await inFlight.untilIdle()
    }

    /// One claim and its deliveries, handed to the provider concurrently; returns how many
    /// rows it took off the queue.
    @discardableResult
    func deliverBatch() async throws -> Int {
        inFlight.enter()
        defer { inFlight.leave() }
        let claim = try await engine.claimDeliveries(limit: engine.settings.deliveryBatchSize)
        let engine = self.engine
        await withTaskGroup(of: Void.self) { group in
            for job in claim.jobs { group.addTask { await engine.deliver(job) } }
        }
        return claim.jobs.count + claim.settled
    }

    private var isStopped: Bool { lock.withLock { stopped } }
}
