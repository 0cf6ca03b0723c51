import Foundation
import GatehouseCore
import GatehouseOutbound

// Safe: `admitted` and `admittedPerAPI` are only read and written under `lock`; `http`, `maxCalls` and `maxCallsPerAPI`
// are `let`s of Sendable types.
/// Sends proxied calls upstream through the node's libcurl client and hands back the head as
/// soon as it arrives, with the body read as the device takes it: curl is paused while a
/// few hundred KiB wait unread, so memory stays flat however large the answer and however
/// slowly the device reads. Redirects are never followed (the 3xx is the answer: its target
/// was never vetted).
///
/// `maxCalls` bounds how many run on this node, and `maxCallsPerAPI` how many of them one
/// definition may hold, so that one upstream that hangs cannot take every slot.
final class UpstreamSession: @unchecked Sendable {
    struct Busy: Error {}

    /// What `open` answers: the head and the rest of the body.
    struct Answer: Sendable {
        let response: OutboundResponse
        let body: any UpstreamBody
        let cancel: @Sendable () -> Void
    }

    let http: CurlHTTPClient
    let maxCalls: Int
    let maxCallsPerAPI: Int
    private let lock = NSLock()
    private var admitted = 0
    private var admittedPerAPI: [String: Int] = [:]

    init(http: CurlHTTPClient, maxCalls: Int = 64, maxCallsPerAPI: Int = 48) {
        self.http = http
        self.maxCalls = maxCalls
        self.maxCallsPerAPI = min(maxCalls, maxCallsPerAPI)
    }

    /// Sends `request` for the definition `api`; returns once the head is in. Past either
    /// limit at once: `Busy`.
    func open(_ request: OutboundRequest, api: String) async throws -> Answer {
        let admittedNow = lock.withLock { () -> Bool in
            guard admitted < maxCalls, admittedPerAPI[api, default: 0] < maxCallsPerAPI else { return false }
            admitted += 1
            admittedPerAPI[api, default: 0] += 1
            return true
        }
        guard admittedNow else { throw Busy() }
        let slot = Slot { [weak self] in self?.release(api) }
        do {
            let stream = try await http.open(request)
            return Answer(response: stream.response, body: stream, cancel: {
                stream.cancel()
                slot.release()
            })
        } catch {
            slot.release()
            throw error
        }
    }

    /// Calls of `api` holding a slot now.
    func inUse(api: String) -> Int { lock.withLock { admittedPerAPI[api] ?? 0 } }

    private func release(_ api: String) {
        lock.withLock {
            admitted -= 1
            admittedPerAPI[api, default: 1] -= 1
            if admittedPerAPI[api] == 0 { admittedPerAPI[api] = nil }
        }
    }

    // Safe: `released` is only read and written under `lock`; `give` is a `let` @Sendable closure.
    /// A call's admission, given back once however many paths end the call.
    final class Slot: @unchecked Sendable {
        private let lock = NSLock()
        private var released = false
        private let give: @Sendable () -> Void
        init(_ give: @escaping @Sendable () -> Void) { self.give = give }
        /// An answer dropped before its body was read still gives its slot back.
        deinit { release() }
        func release() {
            let first = lock.withLock { () -> Bool in
                defer { released = true }
                return !released
            }
            if first { give() }
        }
    }
}

/// The rest of an upstream's answer, read piece by piece (nil at its end).
protocol UpstreamBody: Sendable {
    func next() async throws -> Data?
    /// The whole body when the answer has already ended and none of it was read; else nil.
    func takeCompleteBody() -> Data?
}

extension OutboundStream: UpstreamBody {}
