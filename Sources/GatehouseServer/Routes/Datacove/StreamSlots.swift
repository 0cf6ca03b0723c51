import Foundation

// Safe: `open` is only read and written under `lock`.
/// How many report streams each account holds open on this node: a stream costs a
/// connection and a task for as long as it lasts, so one account cannot hold hundreds.
final class StreamSlots: @unchecked Sendable {
    static let perAccount = 8
    private let lock = NSLock()
    private var open: [String: Int] = [:]

    /// A slot, or `nil` when the account holds all of its own.
    func open(_ account: String) -> Slot? {
        let granted = lock.withLock { () -> Bool in
            guard open[account, default: 0] < Self.perAccount else { return false }
            open[account, default: 0] += 1
            return true
        }
        return granted ? Slot(slots: self, account: account) : nil
    }

    fileprivate func release(_ account: String) {
        lock.withLock {
            open[account, default: 1] -= 1
            if open[account] == 0 { open[account] = nil }
        }
    }

    // Safe: `closed` is only read and written under `lock`; `slots` and `account` are immutable `let`s.
    /// One open stream's slot, given back once by `close()` (or when it is dropped unclosed).
    final class Slot: @unchecked Sendable {
        private let slots: StreamSlots
        private let account: String
        private let lock = NSLock()
        private var closed = false

        fileprivate init(slots: StreamSlots, account: String) {
            self.slots = slots
            self.account = account
        }

        func close() {
            let first = lock.withLock { () -> Bool in
                defer { closed = true }
                return !closed
            }
            if first { slots.release(account) }
        }

        deinit { close() }
    }
}
