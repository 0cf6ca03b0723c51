import Foundation

extension MessageDelivery {
    /// `send`, given up after `seconds` of real time: the send is cancelled and abandoned, and a
    /// retryable `DeliveryError` thrown. A dispatcher's claim is a lease; a send that outlived
    /// it would be claimed again by another dispatcher while it still ran, and the code sent
    /// twice. Abandoned rather than awaited, since a provider blocked where cancellation cannot
    /// reach (a socket wait, a transport that never completes) would hold the dispatcher past
    /// the lease all the same.
    public func send(_ message: OutboundMessage, within seconds: TimeInterval) async throws -> DeliveryReceipt {
        let race = DeadlineRace<DeliveryReceipt>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                race.add(Task {
                    do {
                        race.finish(.success(try await send(message)))
                    } catch {
                        race.finish(.failure(error))
                    }
                })
                race.add(Task {
                    // A cancelled sleep means the send finished first; only a full one ends it.
                    guard (try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))) != nil else { return }
                    race.finish(.failure(DeliveryError("the provider did not finish within \(seconds) s", retryable: true)))
                })
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}

// Safe: `continuation`, `outcome` and `tasks` are only read and written under `lock`.
/// One continuation, resumed by whichever side finishes first; the other side is cancelled.
final class DeadlineRace<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var outcome: Result<Value, any Error>?
    private var tasks: [Task<Void, Never>] = []

    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        // Cancellation may have come before the continuation existed.
        let early = lock.withLock { () -> Result<Value, any Error>? in
            if outcome == nil { self.continuation = continuation }
            return outcome
        }
        if let early { continuation.resume(with: early) }
    }

    func add(_ task: Task<Void, Never>) {
        let finished = lock.withLock { () -> Bool in
            if outcome == nil { tasks.append(task) }
            return outcome != nil
        }
        if finished { task.cancel() }
    }

    func finish(_ result: Result<Value, any Error>) {
        let (waiting, losers) = lock.withLock { () -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
            guard outcome == nil else { return (nil, []) }
            outcome = result
            defer { continuation = nil; tasks = [] }
            return (continuation, tasks)
        }
        waiting?.resume(with: result)
        losers.forEach { $0.cancel() }
    }
}
