import CCurl
import Foundation
import GatehouseCore

// Safe: `commands` and `stopping` are only read and written under `lock`; `active`, `timerDue` and every use of `multi`
// and `epoll` belong to the loop thread. Other threads only write to `wake`, under `lock` and before the loop has seen
// `stopping`, so never after the loop closed it.
/// The node's one curl multi handle, driven by a thread of its own. Every easy handle is
/// added, paused, resumed and removed on that thread only; other threads hand it commands
/// and wake it. Connections stay in the multi handle's cache between calls, so calls to the
/// same upstream reuse them (HTTP/1.1 keep-alive, HTTP/2 multiplexing where offered).
///
/// The loop uses curl's socket interface: curl names the sockets to watch and its next
/// timer, the loop waits on them with epoll and tells curl which one is ready, so an event
/// costs curl the transfer it concerns. (`curl_multi_perform` and `curl_multi_poll` walk
/// every transfer on every wake, a cost that grows with the calls in flight.)
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
    /// The sockets curl asked to watch, and `wake`.
    private let epoll: Int32
    /// Written to wake the loop for a command.
    private let wake: Int32
    /// When curl's timer is due (monotonic nanoseconds), nil when it has none.
    private var timerDue: UInt64?
    /// What one wait found: the ready sockets and curl's `CURL_CSELECT_*` bits for each.
    private var readyFDs = [Int32](repeating: 0, count: 64)
    private var readyMasks = [Int32](repeating: 0, count: 64)

    init(name: String) {
        precondition(Self.initialized, "curl_global_init failed")
        multi = curl_multi_init()
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(epoll >= 0 && wake >= 0, "the curl loop could not make its epoll or eventfd descriptor")
        _ = ccurl_epoll_watch(epoll, wake, 1, 0)
        // Fewer connections kept open per host than that is a handshake per call under load.
        _ = ccurl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 256)
        let this = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_multi_set_socket(multi, { _, socket, what, loop, _ in
            Unmanaged<CurlLoop>.fromOpaque(loop!).takeUnretainedValue().watch(socket, what)
            return 0
        }, this)
        _ = ccurl_multi_set_timer(multi, { _, milliseconds, loop in
            Unmanaged<CurlLoop>.fromOpaque(loop!).takeUnretainedValue().setTimer(milliseconds)
            return 0
        }, this)
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func submit(_ command: Command) {
        // Woken under the lock: the multi handle is cleaned up only once `stopping` is set.
        let accepted = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            commands.append(command)
            wakeLoop()
            return true
        }
        if !accepted, case .add(let transfer) = command { transfer.abandon(CancellationError()) }
    }

    /// Ends the loop: every transfer still running fails as cancelled.
    func stop() {
        lock.withLock {
            guard !stopping else { return }
            stopping = true
            wakeLoop()
        }
    }

    /// Under `lock`, before `stopping` is seen by the loop.
    private func wakeLoop() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// curl's socket callback: what to watch on `socket` now.
    private func watch(_ socket: curl_socket_t, _ what: Int32) {
        if what == CURL_POLL_REMOVE { return ccurl_epoll_forget(epoll, socket) }
        let reading = what == CURL_POLL_IN || what == CURL_POLL_INOUT
        let writing = what == CURL_POLL_OUT || what == CURL_POLL_INOUT
        _ = ccurl_epoll_watch(epoll, socket, reading ? 1 : 0, writing ? 1 : 0)
    }

    /// curl's timer callback: -1 takes the timer away, 0 is at once.
    private func setTimer(_ milliseconds: Int) {
        timerDue = milliseconds < 0 ? nil : DispatchTime.now().uptimeNanoseconds + UInt64(min(milliseconds, 86_400_000)) * 1_000_000
    }

    /// Waits for a socket, a command or curl's timer (at most a second), and tells curl.
    /// A second with nothing at all runs curl's timeout action anyway while transfers are in
    /// flight: it makes curl announce its timer again, so a wake-up lost anywhere costs a
    /// transfer a second, not its whole deadline.
    private func waitAndAct(_ running: inout Int32) {
        let now = DispatchTime.now().uptimeNanoseconds
        let wait = timerDue.map { $0 <= now ? 0 : Int32(min(1000, ($0 - now + 999_999) / 1_000_000)) } ?? 1000
        let ready = ccurl_epoll_wait(epoll, &readyFDs, &readyMasks, 64, wait)
        for index in 0..<max(0, Int(ready)) {
            if readyFDs[index] == wake {
                var count: UInt64 = 0
                _ = read(wake, &count, MemoryLayout<UInt64>.size)
                continue
            }
            curl_multi_socket_action(multi, readyFDs[index], readyMasks[index], &running)
        }
        if ready == 0, wait == 1000, !active.isEmpty { timerDue = 0 }
        if let due = timerDue, due <= DispatchTime.now().uptimeNanoseconds {
            // Taken first: the action may set the next one.
            timerDue = nil
            curl_multi_socket_action(multi, ccurl_socket_timeout(), 0, &running)
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
            // A command's work (an unpaused transfer's held bytes) is settled before the wait.
            collectFinished()
            publishDueHeads()
            waitAndAct(&running)
            collectFinished()
            publishDueHeads()
        }
        for transfer in Array(active.values) {
            detach(transfer)
            transfer.abandon(CancellationError())
        }
        for case .add(let transfer) in lock.withLock({ commands }) { transfer.abandon(CancellationError()) }
        curl_multi_cleanup(multi)
        close(epoll)
        close(wake)
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
