import Foundation
import GatehouseCrypto
import GatehouseDatabase

/// Where the console's password hashes are computed: on two threads of their own, never on
/// the Swift concurrency pool (whose two threads serve every request), with at most `limit`
/// checks admitted at once; past that a sign-in is refused as busy rather than queued, so a
/// flood of guesses costs the server a bounded amount of memory and time.
final class PasswordChecks: @unchecked Sendable {
    private static let pool = BlockingThreadPool(name: "gatehouse.passwords", maxThreads: 2)
    private let lock = NSLock()
    // Guarded by `lock`.
    private var admitted = 0
    private var decoy: String?
    let limit: Int
    let cost: PasswordHash.Cost

    init(cost: PasswordHash.Cost, limit: Int = 32) {
        self.cost = cost
        self.limit = limit
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await run { [self] in
            _ = decoyHash()
            return PasswordHash.verify(password, against: hash)
        }
    }

    /// The same work as `verify`, against a hash no password matches: checked where there is
    /// no operator's hash, so that the time of a refusal tells nothing.
    func verifyDecoy(_ password: String) async throws {
        _ = try await run { [self] in PasswordHash.verify(password, against: decoyHash()) }
    }

    func make(_ password: String) async throws -> String {
        try await run { [cost] in PasswordHash.make(password, cost: cost, random: SystemRandom()) }
    }

    /// Made on the first check of any kind (not at start, which every test server would pay).
    private func decoyHash() -> String {
        lock.lock()
        defer { lock.unlock() }
        if let decoy { return decoy }
        let made = PasswordHash.make(UUID().uuidString, cost: cost, random: SystemRandom())
        decoy = made
        return made
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let admittedNow = lock.withLock {
            guard admitted < limit else { return false }
            admitted += 1
            return true
        }
        guard admittedNow else { throw ConsoleError.busy }
        defer { lock.withLock { admitted -= 1 } }
        return await withCheckedContinuation { continuation in Self.pool.run { continuation.resume(returning: work()) } }
    }
}
