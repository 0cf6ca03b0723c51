import Foundation

// Safe: `value` and `continuation` are only read and written under `lock`.
/// One value, delivered once to one waiter: the first `resolve` wins and later ones are ignored, whichever
/// thread they come from, so a step's callback or a connection's handlers can never resume twice.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    private var continuation: CheckedContinuation<Value, Never>?

    init() {}

    /// Sets the value unless one was set; whether this call set it.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        lock.lock()
        guard self.value == nil else {
            lock.unlock()
            return false
        }
        self.value = value
        let waiter = continuation
        continuation = nil
        lock.unlock()
        waiter?.resume(returning: value)
        return true
    }

    /// The value, once set; a cancelled Task resolves it with `cancelled`.
    func wait(orIfCancelled cancelled: Value) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                let ready = lock.withLock { () -> Value? in
                    if let value { return value }
                    self.continuation = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            resolve(cancelled)
        }
    }
}

/// What the app answered to a step.
enum StepAnswer<Input: Sendable>: Sendable {
    case success(Input?)
    /// `onError`, or the authentication's Task was cancelled while waiting.
    case cancelled
}
