import Foundation
#if canImport(UIKit)
import UIKit
#endif

// Safe: `generation` and `waiters` are only read and written under `lock`; `observer` is written once, in `init`, and
// only read again in `deinit`.
/// Wakes every waiter when the app returns to the foreground.
final class ForegroundSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    private var observer: NSObjectProtocol?

    init() {
        #if canImport(UIKit) && !os(watchOS)
        observer = NotificationCenter.default.addObserver(
            forName: UIApplication.willEnterForegroundNotification, object: nil, queue: nil) { [weak self] _ in self?.signal() }
        #endif
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    func signal() {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            generation += 1
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns after `seconds`, on a foreground signal, or on cancellation.
    func sleep(_ seconds: TimeInterval) async {
        let id = UUID()
        let seen = lock.withLock { generation }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let now = self.lock.withLock { () -> Bool in
                            if self.generation != seen || Task.isCancelled { return true }
                            self.waiters[id] = continuation
                            return false
                        }
                        if now { continuation.resume() }
                    }
                } onCancel: {
                    self.lock.withLock { self.waiters.removeValue(forKey: id) }?.resume()
                }
            }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000)) }
            await group.next()
            group.cancelAll()
        }
    }
}
