import Foundation
import GatehouseCore
import GatehouseDatabase

// Safe: `versions`, `waiters` and `nextWaiter` are only read and written under `lock`; `channel` is an immutable `let`.
/// Tells the report streams and waiting executes of one node that an account's runs changed.
/// It carries no data: a woken reader reads the event log, so a wake-up lost or doubled
/// costs nothing. On PostgreSQL, events committed on another node arrive through
/// `LISTEN/NOTIFY` on `channel` (which may be shared with other notices: this hub's payloads
/// start with `workflow-events` and a newline) and are fed in with `received(_:)`.
public final class RunEventHub: @unchecked Sendable {
    /// The PostgreSQL channel every node sends and listens on.
    public static let defaultChannel = "gatehouse_workflow_events"
    static let payloadPrefix = "workflow-events\n"
    public let channel: String
    private let lock = NSLock()
    private var versions: [String: UInt64] = [:]
    private var waiters: [String: [UInt64: CheckedContinuation<Void, Never>]] = [:]
    private var nextWaiter: UInt64 = 0

    public init(channel: String = RunEventHub.defaultChannel) {
        self.channel = channel
    }

    static func key(tenantID: String, accountID: String) -> String { tenantID + " " + accountID }

    /// How many times the account's runs have changed, as this node has heard.
    public func version(tenantID: String, accountID: String) -> UInt64 {
        lock.withLock { versions[Self.key(tenantID: tenantID, accountID: accountID)] ?? 0 }
    }

    public func publish(tenantID: String, accountID: String) { publish(key: Self.key(tenantID: tenantID, accountID: accountID)) }

    /// A notice from another node; false when the payload is not this hub's.
    @discardableResult
    public func received(_ payload: String) -> Bool {
        guard payload.hasPrefix(Self.payloadPrefix) else { return false }
        publish(key: String(payload.dropFirst(Self.payloadPrefix.count)))
        return true
    }

    /// Wakes every waiter (a reconnected listener may have missed notices).
    public func publishEverything() {
        let keys = lock.withLock { Array(waiters.keys) }
        for key in keys { publish(key: key) }
    }

    private func publish(key: String) {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            versions[key, default: 0] &+= 1
            return waiters.removeValue(forKey: key).map { Array($0.values) } ?? []
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once the version has passed `seen`, after `timeout` seconds of `clock`, or on
    /// cancellation.
    public func wait(tenantID: String, accountID: String, after seen: UInt64, timeout: TimeInterval, clock: any Clock) async {
        let key = Self.key(tenantID: tenantID, accountID: accountID)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForChange(key: key, after: seen) }
            group.addTask { try? await clock.sleep(for: max(0, timeout)) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForChange(key: String, after seen: UInt64) async {
        let id = lock.withLock { () -> UInt64 in
            nextWaiter += 1
            return nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if (versions[key] ?? 0) != seen || Task.isCancelled { return true }
                    waiters[key, default: [:]][id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { () -> CheckedContinuation<Void, Never>? in
                let waiter = waiters[key]?.removeValue(forKey: id)
                if waiters[key]?.isEmpty == true { waiters[key] = nil }
                return waiter
            }?.resume()
        }
    }

    /// Queues the notice for other nodes in the transaction that wrote the event (PostgreSQL
    /// delivers it at commit, and not at all on rollback).
    func notifyOtherNodes(_ db: any DatabaseConnection, tenantID: String, accountID: String) throws {
        guard let notify = db.dialect.notify else { return }
        try db.send(notify, [.text(channel), .text(Self.payloadPrefix + Self.key(tenantID: tenantID, accountID: accountID))])
    }
}
