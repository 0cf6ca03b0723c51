import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `OutboundHTTP.send` bounded by a deadline of the adapter's own, whether or not the
/// transport keeps its timeout.
///
/// Why: URLSession on Linux (swift-corelibs-foundation issue #5456, seen with Swift 6.3.1)
/// never completes a request answered 401 with a `WWW-Authenticate` header, which is how
/// Twilio answers a wrong Auth Token, and the request's timeout does not end it either. A
/// delivery must not wait forever on one message, so the first of the answer and the deadline
/// wins; a transport call that never returns is abandoned (cancelled, for transports that
/// honour cancellation) rather than awaited.
enum TransportDeadline {
    static func send(_ request: URLRequest, over http: any OutboundHTTP, within seconds: TimeInterval) async throws -> (Data, HTTPURLResponse) {
        let race = Race<(Data, HTTPURLResponse)>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                race.add(Task {
                    do {
                        race.finish(.success(try await http.send(request)))
                    } catch {
                        race.finish(.failure(error))
                    }
                })
                race.add(Task {
                    try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                    race.finish(.failure(URLError(.timedOut)))
                })
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// One continuation, resumed by whichever side finishes first; the other side is cancelled.
    private final class Race<Value: Sendable>: @unchecked Sendable {
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
}
