import Foundation

/// What handling one transaction came to.
public enum TransactionOutcome: Sendable, Equatable {
    /// The server granted or linked it; it was finished.
    case completed(PurchaseReceipt)
    /// Refused for good (or the user declined a move); finished so StoreKit stops offering it.
    case refused(status: Int?, code: PurchasesErrorCode?, message: String)
    /// Not confirmed (401, 429, 5xx, offline, finish failed): left unfinished for the next launch.
    case willRetry(String)
    /// StoreKit could not verify it: never sent, never finished.
    case ignoredUnverified
}

/// What `buy` came to.
public enum BuyOutcome: Sendable, Equatable {
    /// The purchase went through and the transaction was handled.
    case handled(TransactionOutcome)
    /// Ask to Buy or SCA: it arrives later through `Transaction.updates`.
    case pending
    /// The user cancelled.
    case cancelled
}

/// Buys, reports and finishes App Store transactions by the seed's rules: only verified ones,
/// reported before finishing, finished only after a 200 (or a final refusal), never on
/// 401/429/5xx/offline; listening from launch, walking unfinished ones, and reading the
/// entitlement from the server, cached for a bounded time offline.
public actor PurchaseManager {
    let store: any StoreKitClient
    let backend: any PurchaseBackend
    /// Asked (with the server's message) before a plan is moved from another account.
    let confirmTransfer: @Sendable (String) async -> Bool
    let offlineWindow: TimeInterval
    let now: @Sendable () -> Date
    private var listener: Task<Void, Never>?
    private var inFlight: [String: Task<TransactionOutcome, Never>] = [:]
    let cacheStore: (any EntitlementCacheStore)?
    private var cached: CachedEntitlement?
    /// SubscriptionFlow answered `sandbox: true` (App Review, TestFlight on a production
    /// connection): unlocked for this session only, since the server records nothing.
    private var sandboxUnlocked = false

    /// - Parameters:
    ///   - confirmTransfer: shows the user the move prompt; true only if they agreed.
    ///   - offlineWindow: how long a cached entitlement is trusted without reaching the server (3 days).
    ///   - cacheStore: keeps the last entitlement across launches (none: memory only).
    public init(store: any StoreKitClient, backend: any PurchaseBackend, offlineWindow: TimeInterval = 3 * 86_400,
                cacheStore: (any EntitlementCacheStore)? = nil, now: @escaping @Sendable () -> Date = { Date() },
                confirmTransfer: @escaping @Sendable (String) async -> Bool) {
        self.store = store
        self.backend = backend
        self.offlineWindow = offlineWindow
        self.cacheStore = cacheStore
        self.cached = cacheStore?.load()
        self.now = now
        self.confirmTransfer = confirmTransfer
    }

    /// Call once at launch: listens to `Transaction.updates`, then walks `Transaction.unfinished`.
    public func start() async {
        if listener == nil {
            let updates = store.updates()
            listener = Task { [weak self] in
                for await result in updates {
                    guard let self else { return }
                    _ = await self.handle(result)
                }
            }
        }
        for result in await store.unfinished() { _ = await handle(result) }
    }

    /// Stops listening to `Transaction.updates`.
    public func stop() {
        listener?.cancel()
        listener = nil
    }

    /// Buys a product (tagged with the backend's account token, if it has one) and handles the result.
    public func buy(productID: String) async throws -> BuyOutcome {
        switch try await store.purchase(productID: productID, appAccountToken: await backend.appAccountToken()) {
        case .success(let result): return .handled(await handle(result))
        case .pending: return .pending
        case .userCancelled: return .cancelled
        }
    }

    /// Restore purchases: syncs with the App Store and reports the current transactions again.
    public func restore() async throws -> [TransactionOutcome] {
        try await store.sync()
        return await linkCurrentEntitlements()
    }

    /// After sign-in: reports each current entitlement once, so a plan bought earlier links to the account.
    @discardableResult
    public func linkCurrentEntitlements() async -> [TransactionOutcome] {
        var outcomes: [TransactionOutcome] = []
        for result in await store.currentEntitlements() { outcomes.append(await handle(result)) }
        return outcomes
    }

    /// Reports one transaction and finishes it when the server's answer allows; a transaction
    /// already being handled (from `updates` and `unfinished` at once) is handled once.
    public func handle(_ result: StoreVerificationResult) async -> TransactionOutcome {
        guard let transaction = result.verified else { return .ignoredUnverified }
        if let running = inFlight[transaction.id] { return await running.value }
        let task = Task { await self.process(transaction) }
        inFlight[transaction.id] = task
        let outcome = await task.value
        inFlight[transaction.id] = nil
        return outcome
    }

    private func process(_ transaction: StoreTransaction) async -> TransactionOutcome {
        var verdict = await backend.report(transaction, transferToCurrentAccount: false)
        if case .transferOffered(let message) = verdict {
            guard await confirmTransfer(message) else {
                // Declined: the plan stays where it is; nothing more is sent for this transaction.
                return await finish(transaction, then: .refused(status: 409, code: .purchaseLinkedToAnotherAccount, message: message))
            }
            verdict = await backend.report(transaction, transferToCurrentAccount: true)
        }
        switch verdict {
        case .accepted(let receipt):
            if receipt.sandbox { sandboxUnlocked = true }
            let outcome = await finish(transaction, then: .completed(receipt))
            _ = try? await refreshEntitlement()
            return outcome
        case .refused(let status, let code, let message):
            return await finish(transaction, then: .refused(status: status, code: code, message: message))
        case .transferOffered(let message):
            return .willRetry("the move was offered again: \(message)")
        case .retryLater(let reason, _):
            return .willRetry(reason)
        }
    }

    private func finish(_ transaction: StoreTransaction, then outcome: TransactionOutcome) async -> TransactionOutcome {
        do {
            try await store.finish(transaction)
            return outcome
        } catch {
            // Reported but not finished: StoreKit offers it again and the server answers the same.
            return .willRetry("finish failed: \(error)")
        }
    }

    /// Reads the entitlement from the server and caches it.
    @discardableResult
    public func refreshEntitlement() async throws -> EntitlementSnapshot {
        let snapshot = try await backend.entitlement()
        let entry = CachedEntitlement(snapshot: snapshot, receivedAt: now())
        cached = entry
        cacheStore?.save(entry)
        return snapshot
    }

    /// The last server answer, while it is within the offline window. A device clock set back
    /// before the answer arrived ends the window too, so it cannot be stretched.
    public func cachedEntitlement() -> EntitlementSnapshot? {
        guard let cached else { return nil }
        let elapsed = now().timeIntervalSince(cached.receivedAt)
        guard elapsed >= 0, elapsed <= offlineWindow else { return nil }
        return cached.snapshot
    }

    /// Whether gated features may be used now, by the server's last answer: its clock moved on by
    /// the time elapsed here (never the device's clock itself), within the offline window.
    public func canUseGatedFeatures() -> Bool {
        if sandboxUnlocked { return true }
        guard let cached, let snapshot = cachedEntitlement(), snapshot.canExecuteGatedWorkflow else { return false }
        let serverNow = snapshot.serverTime.addingTimeInterval(now().timeIntervalSince(cached.receivedAt))
        return snapshot.validUntil.map { serverNow < $0 } ?? true
    }

    /// Forgets the cached entitlement (call at sign-out, before another account signs in).
    public func clearEntitlement() {
        cached = nil
        sandboxUnlocked = false
        cacheStore?.clear()
    }
}
