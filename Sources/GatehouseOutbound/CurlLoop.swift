import CCurl
import Foundation
import GatehouseCore

// Safe: `commands` and `stopping` are only read and written under `lock`; `active` and every use of `multi` belong to the
// loop thread, except `curl_multi_wakeup`, which libcurl allows from any thread and which is only called under `lock`
// before the loop has seen `stopping`, so never after its `curl_multi_cleanup`.
/// The node's one curl multi handle, driven by a thread of its own. Every easy handle is
/// added, paused, resumed and removed on that thread only; other threads hand it commands
/// and wake it. Connections stay in the multi handle's cache between calls, so calls to the
/// same upstream reuse them (HTTP/1.1 keep-alive, HTTP/2 multiplexing where offered).
final class CurlLoop: @unchecked Sendable {
    enum Command {
        case add(CurlTransfer)
        /// The caller let go: removed at once, whatever phase it is in.
        case remove(CurlTransfer)
        /// The caller took what was waiting: curl may deliver again.
        case unpause(CurlTransfer)
    }

    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var commands: [Command] = []
    private var stopping = false
    /// Transfers in the multi handle, by easy handle: the loop thread's alone.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Transfers whose head came in during the current pass: the loop thread's alone.
    private var dueHeads: [CurlTransfer] = []

    init(name: String) {
        precondition(Self.initialized, "curl_global_init failed")
        multi = curl_multi_init()
        // Fewer connections kept open per host than that is a handshake per call under load.
        _ = ccurl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 256)
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func submit(_ command: Command) {
        // Woken under the lock: the multi handle is cleaned up only once `stopping` is set.
        let accepted = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            commands.append(command)
            curl_multi_wakeup(multi)
            return true
        }
        if !accepted, case .add(let transfer) = command { transfer.abandon(CancellationError()) }
    }

    /// Ends the loop: every transfer still running fails as cancelled.
    func stop() {
        lock.withLock {
            stopping = true
            curl_multi_wakeup(multi)
        }
    }

    private func run() {
        var running: Int32 = 0
        while true {
            let (batch, stop) = lock.withLock { () -> ([Command], Bool) in
                defer { commands = [] }
                return (commands, stopping)
            }
            for command in batch { apply(command) }
            if stop { break }
            curl_multi_perform(multi, &running)
            collectFinished()
            publishDueHeads()
            // Woken early by a command; otherwise curl's own timers bound the wait.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        for transfer in Array(active.values) {
            detach(transfer)
            transfer.abandon(CancellationError())
        }
        for case .add(let transfer) in lock.withLock({ commands }) { transfer.abandon(CancellationError()) }
        curl_multi_cleanup(multi)
    }

    private func apply(_ command: Command) {
        switch command {
        case .add(let transfer):
            // Let go of before it was added: nothing to start.
            guard !transfer.isFinished else { return }
            active[transfer.easy] = transfer
            transfer.loop = self
            if curl_multi_add_handle(multi, transfer.easy) != CURLM_OK {
                active[transfer.easy] = nil
                transfer.completed(CURLE_FAILED_INIT)
            }
        case .remove(let transfer):
            guard active[transfer.easy] != nil else { return }
            detach(transfer)
        case .unpause(let transfer):
            // Delivers what curl held back, in this call: the write callback may pause again.
            guard active[transfer.easy] != nil else { return }
            // A callback that fails while curl hands over what it held ends the transfer here.
            let code = curl_easy_pause(transfer.easy, ccurl_pause_continue())
            if code != CURLE_OK {
                detach(transfer)
                transfer.completed(code)
            }
        }
    }

    /// Called by a transfer's callback, on this thread, when its head is complete.
    func headIsDue(_ transfer: CurlTransfer) { dueHeads.append(transfer) }

    /// Hands over the heads that came in during the pass just ended, after the transfers
    /// that ended in it were settled: a small answer reaches its caller whole.
    private func publishDueHeads() {
        guard !dueHeads.isEmpty else { return }
        for transfer in dueHeads { transfer.publishDueHead() }
        dueHeads.removeAll(keepingCapacity: true)
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let transfer = active[easy] else { continue }
            let code = message.pointee.data.result
            detach(transfer)
            transfer.completed(code)
        }
    }

    /// Takes the handle out of the multi handle; the transfer (and its easy handle) may be
    /// freed from here on, by whoever holds it last.
    private func detach(_ transfer: CurlTransfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        active[transfer.easy] = nil
    }
}
