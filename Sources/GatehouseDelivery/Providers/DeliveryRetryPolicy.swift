import Foundation
import GatehouseCore

/// How a provider adapter retries a message the provider could not take for now (a 5xx, a
/// 429 or throttle answer, a timeout, a connection that failed): a bounded number of
/// attempts with exponential backoff. A refusal (any other 4xx) is never retried.
public struct DeliveryRetryPolicy: Sendable {
    /// Waits between attempts. Injected so tests record the delays instead of sleeping.
    public typealias Sleep = @Sendable (TimeInterval) async throws -> Void

    /// Attempts in all, the first included (1 means no retry).
    public let attempts: Int
    /// The wait after the first failed attempt; each later wait doubles it.
    public let initialBackoff: TimeInterval
    /// No wait is longer than this, a provider's `Retry-After` included.
    public let maximumBackoff: TimeInterval
    let sleep: Sleep

    /// - Parameters:
    ///   - attempts: at least 1.
    ///   - sleep: defaults to `Task.sleep`, which ends early (throwing) when the task is cancelled.
    public init(attempts: Int = 3, initialBackoff: TimeInterval = 0.5, maximumBackoff: TimeInterval = 8, sleep: @escaping Sleep = DeliveryRetryPolicy.taskSleep) {
        precondition(attempts >= 1, "a retry policy needs at least one attempt")
        self.attempts = attempts
        self.initialBackoff = max(0, initialBackoff)
        self.maximumBackoff = max(0, maximumBackoff)
        self.sleep = sleep
    }

    /// Three attempts, waiting 0.5 s and then 1 s.
    public static let standard = DeliveryRetryPolicy()

    /// Sleeps on the Swift concurrency clock.
    public static let taskSleep: Sleep = { seconds in
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }

    /// The wait after failed attempt number `attempt` (1-based). A provider's `Retry-After`
    /// lengthens it, never shortens it, and the cap holds either way (a provider asking for an
    /// hour must not hold a code that expires in minutes).
    func backoff(afterAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let exponential = initialBackoff * pow(2, Double(max(0, attempt - 1)))
        return min(maximumBackoff, max(exponential, retryAfter ?? 0))
    }
}
