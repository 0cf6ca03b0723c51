import Foundation
import GatehouseCore

/// A per-minute limit on one kind of call, counted in this node's memory by the environment's
/// request rate limiter (and settled with the other nodes where that is configured): the one
/// limiter of the routes that count calls, each with its own name, allowance and refusal.
///
/// ```swift
/// let tokens = PerMinuteLimit(name: "prove-token", perMinute: 60, environment: engine.environment) { retryAfter in
///     ProveError(429, .rateLimited, "too many token requests", retryAfter: retryAfter)
/// }
/// try tokens.count(context.clientAddress)
/// ```
struct PerMinuteLimit: Sendable {
    let name: String
    let perMinute: Int
    let limiter: RequestRateLimiter
    let clock: any Clock
    /// The dialect's refusal, given the seconds until the window ends.
    let refusal: @Sendable (Int) -> any Error

    init(name: String, perMinute: Int, environment: Environment, refusal: @escaping @Sendable (Int) -> any Error) {
        self.name = name
        self.perMinute = perMinute
        limiter = environment.rateLimiter
        clock = environment.clock
        self.refusal = refusal
    }

    /// Counts one call of `key` (an address, an account and API); past the allowance, throws the refusal.
    func count(_ key: String) throws {
        let (count, retryAfter) = limiter.hit(name + "\n" + key, now: clock.now, window: 60)
        if count > perMinute { throw refusal(retryAfter) }
    }
}
