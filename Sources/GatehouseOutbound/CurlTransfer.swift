import CCurl
import Foundation
import GatehouseCore
import GatehouseFormats

// Safe: `published`, `headWaiter`, `body`, `bodyWaiter`, `wholeWaiter`, `outcome`, `paused` and `bodyTaken` are only touched under
// `lock`; `lines`, `headerBytes`, `received`, `headPublished`, `dueHead` and `abortReason` only by curl's callbacks and `completed`,
// all on the loop thread, which alone drives `easy` and sets `loop`; `headerList` is set in `init`, and `settled` and `requestUnpause`
// by CurlHTTPClient before the transfer is submitted to the loop or a cancellation handler can see it.
/// One request on one curl easy handle: its options, the callbacks curl calls on the loop
/// thread, and the answer as the caller sees it (its head once, then its body, whole or in
/// pieces). Everything the caller and the loop thread share is behind `lock`; what only
/// the callbacks touch is the loop thread's alone.
final class CurlTransfer: @unchecked Sendable {
    /// `buffered`: the whole answer at once. `streamed`: the head first, then the body as
    /// the caller pulls it; curl is paused while `highWater` bytes wait unread.
    enum Mode { case buffered, streamed(highWater: Int) }

    let easy: UnsafeMutableRawPointer
    let request: OutboundRequest
    let mode: Mode
    let started = DispatchTime.now().uptimeNanoseconds
    var headerList: UnsafeMutablePointer<curl_slist>?

    // The loop thread's own.
    private var lines: [(name: String, value: String)] = []
    private var headerBytes = 0
    private var received = 0
    private var headPublished = false
    /// The head as it stood at its blank line, once that came.
    private var dueHead: OutboundResponse?
    /// The loop that drives this transfer, told when a head is due (see `publishDueHead`).
    weak var loop: CurlLoop?
    /// Why a callback stopped the transfer, which curl reports only as a write error.
    var abortReason: OutboundError.Code?

    private let lock = NSLock()
    private var published: OutboundResponse?
    private var headWaiter: CheckedContinuation<OutboundResponse, any Error>?
    private var body = Data()
    private var bodyWaiter: CheckedContinuation<Data?, any Error>?
    private var wholeWaiter: CheckedContinuation<(Data, OutboundResponse), any Error>?
    private var outcome: Result<Void, any Error>?
    private var paused = false
    private var bodyTaken = false
    /// Asks the loop to let curl go on once the caller has taken what was waiting.
    var requestUnpause: (@Sendable () -> Void)?
    /// Told how the transfer ended (the metrics' outcome), once, before any waiter resumes.
    var settled: (@Sendable (CurlTransfer, String) -> Void)?

    /// More header fields than this, or more header bytes, is a broken or hostile answer.
    static let maxHeaderFields = 200
    static let maxHeaderBytes = 64 * 1024

    init(request: OutboundRequest, mode: Mode) throws {
        guard let easy = curl_easy_init() else { throw OutboundError(.unknown) }
        self.easy = easy
        self.request = request
        self.mode = mode
        try configure()
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
    }

    var isFinished: Bool { lock.withLock { outcome != nil } }

    // MARK: - What the caller waits for

    /// Waits for the whole answer (buffered mode).
    func whole(_ continuation: CheckedContinuation<(Data, OutboundResponse), any Error>) {
        let settled = lock.withLock { () -> Result<(Data, OutboundResponse), any Error>? in
            switch outcome {
            case .none:
                wholeWaiter = continuation
                return nil
            case .failure(let error): return .failure(error)
            case .success: return published.map { .success((body, $0)) } ?? .failure(OutboundError(.invalidResponse))
            }
        }
        if let settled { continuation.resume(with: settled) }
    }

    /// Waits for the head (streamed mode).
    func head(_ continuation: CheckedContinuation<OutboundResponse, any Error>) {
        let settled = lock.withLock { () -> Result<OutboundResponse, any Error>? in
            if let published { return .success(published) }
            if case .failure(let error) = outcome { return .failure(error) }
            if outcome != nil { return .failure(OutboundError(.invalidResponse)) }
            headWaiter = continuation
            return nil
        }
        if let settled { continuation.resume(with: settled) }
    }

    /// Waits for the next piece of the body; nil at its end (streamed mode).
    func nextChunk(_ continuation: CheckedContinuation<Data?, any Error>) {
        var unpause = false
        let settled = lock.withLock { () -> Result<Data?, any Error>? in
            bodyTaken = true
            if !body.isEmpty {
                let chunk = body
                body = Data()
                if paused {
                    paused = false
                    unpause = true
                }
                return .success(chunk)
            }
            switch outcome {
            case .some(.success): return .success(nil)
            case .some(.failure(let error)): return .failure(error)
            case .none:
                bodyWaiter = continuation
                return nil
            }
        }
        if unpause { requestUnpause?() }
        if let settled { continuation.resume(with: settled) }
    }

    /// The whole body, when the transfer has ended well and nothing of it was read yet;
    /// nil otherwise (read it with `nextChunk`). Taken once: `nextChunk` answers nil after.
    func takeCompleteBody() -> Data? {
        lock.withLock {
            guard case .success = outcome, !bodyTaken else { return nil }
            bodyTaken = true
            defer { body = Data() }
            return body
        }
    }

    /// Ends the transfer from the caller's side: every waiter resumes with `error` now, once;
    /// the loop removes the handle on its own thread.
    @discardableResult
    func abandon(_ error: any Error) -> Bool {
        finish(.failure(error), outcome: "cancelled")
    }

    // MARK: - What the loop thread reports

    /// curl is done with the transfer, well or not; false when the caller had let go first.
    @discardableResult
    func completed(_ code: CURLcode) -> Bool {
        if code == CURLE_OK, abortReason == nil {
            // Settled together with the outcome: a caller woken by the head finds the whole
            // answer there already (`takeCompleteBody`).
            storeHead()
            var status = 0
            _ = ccurl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
            return finish(.success(()), outcome: "\(status / 100)xx")
        }
        // A head that was in before the failure is the caller's first: the body's reader
        // learns of the failure.
        if headPublished { publishHead() }
        let failure = abortReason ?? CurlErrors.code(code)
        return finish(.failure(OutboundError(failure)), outcome: failure.rawValue)
    }

    /// Settles the outcome once; true for the call that did.
    private func finish(_ result: Result<Void, any Error>, outcome label: String) -> Bool {
        var settled = false
        let (headWaiter, bodyWaiter, wholeWaiter, head, body) = lock.withLock {
            () -> (CheckedContinuation<OutboundResponse, any Error>?, CheckedContinuation<Data?, any Error>?,
                CheckedContinuation<(Data, OutboundResponse), any Error>?, OutboundResponse?, Data)
            in
            guard outcome == nil else { return (nil, nil, nil, nil, Data()) }
            settled = true
            outcome = result
            defer {
                self.headWaiter = nil
                self.bodyWaiter = nil
                self.wholeWaiter = nil
            }
            return (self.headWaiter, self.bodyWaiter, self.wholeWaiter, published, self.body)
        }
        if settled { self.settled?(self, label) }
        switch result {
        case .failure(let error):
            headWaiter?.resume(throwing: error)
            bodyWaiter?.resume(throwing: error)
            wholeWaiter?.resume(throwing: error)
        case .success:
            if let head {
                headWaiter?.resume(returning: head)
                wholeWaiter?.resume(returning: (body, head))
            } else {
                headWaiter?.resume(throwing: OutboundError(.invalidResponse))
                wholeWaiter?.resume(throwing: OutboundError(.invalidResponse))
            }
            bodyWaiter?.resume(returning: nil)
        }
        return settled
    }

    /// The head, once it is due, is handed to the caller when curl's pass over its
    /// connections ends rather than at once, so that an answer that ends in the same pass
    /// reaches the caller whole (one wake-up, no stream), while a slow body still lets the
    /// head through at once.
    private func headIsDue() {
        guard !headPublished else { return }
        headPublished = true
        // Taken now: trailer fields that follow a short body in the same pass reach the
        // header callback too, and are not part of the head.
        dueHead = currentHead
        if let loop { loop.headIsDue(self) } else { publishHead() }
    }

    /// Called by the loop after its pass: the head that became due in it, unless the
    /// transfer has ended meanwhile (then `completed` handed it over).
    func publishDueHead() { publishHead() }

    private var currentHead: OutboundResponse {
        var status = 0
        _ = ccurl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return OutboundResponse(statusCode: status, headerFields: lines)
    }

    /// Keeps the head for `finish` to hand over with the outcome, waking nobody.
    private func storeHead() {
        let head = dueHead ?? currentHead
        lock.withLock { if published == nil { published = head } }
    }

    /// The last header block read is the answer's head; published once, when its body begins
    /// or the transfer ends (a followed redirect's own head is replaced by the next one's).
    private func publishHead() {
        let head = dueHead ?? currentHead
        let waiter = lock.withLock { () -> CheckedContinuation<OutboundResponse, any Error>? in
            guard published == nil, outcome == nil else { return nil }
            published = head
            defer { headWaiter = nil }
            return headWaiter
        }
        waiter?.resume(returning: head)
    }

    // MARK: - Callbacks (loop thread)

    /// One header line, CRLF included. A status line starts a new block.
    func headerLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= Self.maxHeaderBytes else { return abort(.invalidResponse) }
        // Bytes, not characters: "\r\n" is one Character in Swift, and a byte scan reads no graphemes.
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.starts(with: "HTTP/".utf8) {
            lines = []
            headerBytes = bytes.count
            return true
        }
        if line.isEmpty {
            // The head is complete: the caller has it now, before any body (an event stream's
            // first event may be a while). Not a redirect's head that curl is about to follow.
            var status = 0
            _ = ccurl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
            if status >= 200, !(request.followsRedirects && (300..<400).contains(status)) { headIsDue() }
            return true
        }
        // A NUL or a bare CR in a field could be read two ways further on: refused whole.
        guard !line.contains(where: { $0 == 0 || $0 == 0x0D }) else { return abort(.invalidResponse) }
        if line[0] == 0x20 || line[0] == 0x09 {
            // An obsolete line folding continues the previous field (RFC 9112 §5.2).
            guard !lines.isEmpty else { return abort(.invalidResponse) }
            lines[lines.count - 1].value += " " + Self.trimmingOptionalWhitespace(line[...])
            return true
        }
        // A name with whitespace glued on ("Set-Cookie :") would pass the proxy's filters.
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0, line[..<colon].allSatisfy(HTTPToken.isTokenByte) else {
            return abort(.invalidResponse)
        }
        lines.append((String(decoding: line[..<colon], as: UTF8.self), Self.trimmingOptionalWhitespace(line[(colon + 1)...])))
        return lines.count <= Self.maxHeaderFields || abort(.invalidResponse)
    }

    /// `text` without the spaces and tabs around it (RFC 9110's OWS; no other character is
    /// whitespace in a field).
    static func trimmingOptionalWhitespace(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        let isOWS = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isOWS($0) }), let last = bytes.lastIndex(where: { !isOWS($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// A piece of the body: kept, or refused with a pause while the caller is behind.
    func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Int {
        headIsDue()
        received += bytes.count
        guard received <= request.maxResponseBytes else {
            _ = abort(.tooLarge)
            return 0
        }
        var wake: CheckedContinuation<Data?, any Error>?
        let taken = lock.withLock { () -> Bool in
            if case .streamed(let highWater) = mode, body.count >= highWater {
                paused = true
                return false
            }
            body.append(bytes.bindMemory(to: UInt8.self))
            if let waiter = bodyWaiter {
                wake = waiter
                bodyWaiter = nil
            }
            return true
        }
        guard taken else {
            received -= bytes.count
            return ccurl_write_pause()
        }
        if let wake {
            let chunk = lock.withLock { () -> Data in
                defer { body = Data() }
                return body
            }
            wake.resume(returning: chunk)
        }
        return bytes.count
    }

    /// Whether curl may connect to this address.
    func mayConnect(to address: UnsafePointer<sockaddr>) -> Bool {
        guard request.destinations == .publicOnly, !PublicAddress.isPublic(address) else {
            // Another of the host's addresses may have been refused first: this one is not.
            if abortReason == .destinationRefused { abortReason = nil }
            return true
        }
        abortReason = .destinationRefused
        return false
    }

    private func abort(_ reason: OutboundError.Code) -> Bool {
        abortReason = reason
        return false
    }
}
