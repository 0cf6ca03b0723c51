import Foundation

/// The authorization attempts in progress, one entry per `state` (L8): the verifier is found by the
/// callback's state, and each entry is taken once, so an unknown, expired or replayed state is refused.
actor PendingAuthorizations {
    private struct Attempt {
        let verifier: String
        let expires: Date
    }

    private var attempts: [String: Attempt] = [:]
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    init(lifetime: TimeInterval = 900, now: @escaping @Sendable () -> Date) {
        self.lifetime = lifetime
        self.now = now
    }

    func begin(_ pkce: PKCE) {
        let current = now()
        attempts = attempts.filter { $0.value.expires > current }
        attempts[pkce.state] = Attempt(verifier: pkce.verifier, expires: current.addingTimeInterval(lifetime))
    }

    func discard(_ state: String) { attempts[state] = nil }

    /// The verifier of the attempt `state` names, removed; nil when there is none (unknown, replayed or expired).
    func take(_ state: String) -> String? {
        guard let attempt = attempts.removeValue(forKey: state), attempt.expires > now() else { return nil }
        return attempt.verifier
    }

    var count: Int { attempts.count }
}
