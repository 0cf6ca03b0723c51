import Foundation
import GatehousePurchases

// Safe: every stored `var` (`scripted`, `unfinishedResults`, `entitlements`, `continuations`, `finishFailures`,
// `finishedIDs`, `finishWaiters`, `tokens`, `syncs`) is only read and written under `lock`.
/// A scripted StoreKit for tests and previews: purchases answer what was scripted, verified
/// transactions stay unfinished until `finish`, and updates are delivered on demand.
public final class ScriptedStoreKit: StoreKitClient, @unchecked Sendable {
    private let lock = NSLock()
    private var scripted: [String: [StorePurchaseResult]] = [:]
    private var unfinishedResults: [StoreVerificationResult] = []
    private var entitlements: [StoreVerificationResult] = []
    private var continuations: [UUID: AsyncStream<StoreVerificationResult>.Continuation] = [:]
    private var finishFailures: [any Error] = []
    private var finishedIDs: [String] = []
    private var finishWaiters: [(id: String, wake: CheckedContinuation<Void, Never>)] = []
    private var tokens: [UUID?] = []
    private var syncs = 0

    /// A store with nothing scripted.
    public init() {}

    /// The next `purchase(productID:)` of this product answers `result`.
    public func script(_ productID: String, _ result: StorePurchaseResult) {
        lock.withLock { scripted[productID, default: []].append(result) }
    }

    /// Delivers a transaction through `Transaction.updates` (a renewal, an Ask to Buy approval).
    public func deliverUpdate(_ result: StoreVerificationResult) {
        let listeners = lock.withLock { () -> [AsyncStream<StoreVerificationResult>.Continuation] in
            if result.verified != nil { unfinishedResults.append(result) }
            return Array(continuations.values)
        }
        for listener in listeners { listener.yield(result) }
    }

    /// Sets what `Transaction.currentEntitlements` lists.
    public func setCurrentEntitlements(_ results: [StoreVerificationResult]) {
        lock.withLock { entitlements = results }
    }

    /// The next `finish` throws `error` and leaves the transaction unfinished (an app killed before finishing).
    public func failNextFinish(_ error: any Error) {
        lock.withLock { finishFailures.append(error) }
    }

    /// Ids of finished transactions, in order.
    public var finished: [String] { lock.withLock { finishedIDs } }

    /// Returns once the transaction `id` has been finished (at once if it has): a test waits on
    /// the app's work arriving, not by polling for it.
    public func waitUntilFinished(_ id: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock { () -> Bool in
                if finishedIDs.contains(id) { return true }
                finishWaiters.append((id, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
    /// The `appAccountToken` of each purchase, in order.
    public var purchaseTokens: [UUID?] { lock.withLock { tokens } }
    /// How often `sync()` ran.
    public var syncCount: Int { lock.withLock { syncs } }
    /// Transactions not finished yet.
    public var pending: [StoreVerificationResult] { lock.withLock { unfinishedResults } }

    /// Answers the next scripted result of `productID`, recording the token; throws when none is scripted.
    public func purchase(productID: String, appAccountToken: UUID?) async throws -> StorePurchaseResult {
        try lock.withLock {
            tokens.append(appAccountToken)
            guard var queue = scripted[productID], !queue.isEmpty else { throw ScriptedStoreKitError.notScripted(productID) }
            let result = queue.removeFirst()
            scripted[productID] = queue
            if case .success(let verification) = result, verification.verified != nil { unfinishedResults.append(verification) }
            return result
        }
    }

    /// A stream of what `deliverUpdate(_:)` delivers from now on.
    public func updates() -> AsyncStream<StoreVerificationResult> {
        let id = UUID()
        return AsyncStream { continuation in
            lock.withLock { continuations[id] = continuation }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { _ = self.continuations.removeValue(forKey: id) }
            }
        }
    }

    /// Verified transactions not finished yet.
    public func unfinished() async -> [StoreVerificationResult] { lock.withLock { unfinishedResults } }

    /// What `setCurrentEntitlements(_:)` set.
    public func currentEntitlements() async -> [StoreVerificationResult] { lock.withLock { entitlements } }

    /// Finishes a transaction, unless `failNextFinish(_:)` scripted a failure.
    public func finish(_ transaction: StoreTransaction) async throws {
        let woken = try lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            if !finishFailures.isEmpty { throw finishFailures.removeFirst() }
            unfinishedResults.removeAll { $0.verified?.id == transaction.id }
            finishedIDs.append(transaction.id)
            let due = finishWaiters.filter { $0.id == transaction.id }.map(\.wake)
            finishWaiters.removeAll { $0.id == transaction.id }
            return due
        }
        for waiter in woken { waiter.resume() }
    }

    /// Counts the call.
    public func sync() async throws { lock.withLock { syncs += 1 } }
}

/// What the scripted store throws.
public enum ScriptedStoreKitError: Error, Equatable {
    /// `purchase` of a product with no scripted answer left.
    case notScripted(String)
}
