import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends proxied calls upstream and hands back the response head as soon as it arrives, with
/// the body as a stream of chunks, so a large answer passes through without being held whole.
/// Redirects are never followed (the 3xx is the answer: its target was never vetted), and a
/// body past `maxBytes` ends the stream with `UpstreamSession.TooLarge`.
///
/// One URLSession for every call, so that connections to an upstream are kept alive and
/// reused (a session per call would pay a TLS handshake per call). `maxCalls` bounds how many
/// run on this node, each holding at most `maxBytes` its client has not read yet.
final class UpstreamSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct TooLarge: Error {}
    struct Busy: Error {}

    /// What `open` answers: the head and the rest of the body.
    struct Answer: Sendable {
        let response: HTTPURLResponse
        let body: AsyncThrowingStream<Data, any Error>
        let cancel: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var calls: [Int: UpstreamCall] = [:]
    private var admitted = 0
    private var session: URLSession!
    let maxCalls: Int

    init(timeout: TimeInterval, maxCalls: Int = 64) {
        self.maxCalls = maxCalls
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 32
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// Sends `request`; returns once the response head is in. Past `maxCalls` at once: `Busy`.
    func open(_ request: URLRequest, maxBytes: Int) async throws -> Answer {
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        // A HEAD answer announces the length of a body it does not send.
        let call = UpstreamCall(maxBytes: maxBytes, checksLength: request.httpMethod != "HEAD") { [weak self] in
            self?.lock.withLock {
                self?.calls[id] = nil
                self?.admitted -= 1
            }
        }
        let fits = lock.withLock { () -> Bool in
            guard admitted < maxCalls else { return false }
            admitted += 1
            calls[id] = call
            return true
        }
        guard fits else { throw Busy() }
        let body = AsyncThrowingStream<Data, any Error>(bufferingPolicy: .unbounded) { continuation in
            call.chunks = continuation
            // Nobody reads the rest (the client left): the transfer is cancelled.
            continuation.onTermination = { _ in
                call.release()
                Self.cancel(task)
            }
        }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPURLResponse, any Error>) in
                call.waitForHead(continuation)
                // Cancelled before the waiter was in place: the handler below found nothing to let go.
                if Task.isCancelled {
                    call.resumeHead(with: .failure(CancellationError()))
                    return
                }
                task.resume()
            }
        } onCancel: {
            call.release()
            Self.cancel(task)
            call.resumeHead(with: .failure(CancellationError()))
            call.chunks?.finish(throwing: CancellationError())
        }
        return Answer(response: response, body: body, cancel: {
            call.release()
            Self.cancel(task)
        })
    }

    /// Cancels off the delegate queue: on Linux, a cancel from inside a delegate callback can
    /// leave the transfer running, its bytes piling up unread.
    static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    private func call(_ task: URLSessionTask) -> UpstreamCall? { lock.withLock { calls[task.taskIdentifier] } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let call = call(dataTask) else { return completionHandler(.cancel) }
        call.received(response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        call(dataTask)?.received(data, task: dataTask)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        call(task)?.completed(task, error: error)
    }
}

/// One call in flight: its head, then its chunks, counted against the limit.
final class UpstreamCall: @unchecked Sendable {
    let maxBytes: Int
    let checksLength: Bool
    private let ended: @Sendable () -> Void
    private let lock = NSLock()
    private var head: CheckedContinuation<HTTPURLResponse, any Error>?
    private var headSettled = false
    var chunks: AsyncThrowingStream<Data, any Error>.Continuation?
    private var byteCount = 0
    private var released = false

    init(maxBytes: Int, checksLength: Bool, ended: @escaping @Sendable () -> Void) {
        self.maxBytes = maxBytes
        self.checksLength = checksLength
        self.ended = ended
    }

    func waitForHead(_ continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
        let settled = lock.withLock { () -> Bool in
            if headSettled { return true }
            head = continuation
            return false
        }
        if settled { continuation.resume(throwing: CancellationError()) }
    }

    /// Gives the call's slot back once: when the transfer ends, or when this side lets it go
    /// (a transfer Linux fails to cancel must not hold a slot for ever).
    func release() {
        let first = lock.withLock { () -> Bool in
            defer { released = true }
            return !released
        }
        if first { ended() }
    }

    /// Resumes the head's waiter once, whichever event comes first.
    func resumeHead(with result: Result<HTTPURLResponse, any Error>) {
        let waiter = lock.withLock { () -> CheckedContinuation<HTTPURLResponse, any Error>? in
            headSettled = true
            defer { head = nil }
            return head
        }
        waiter?.resume(with: result)
    }

    func received(_ response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            resumeHead(with: .failure(URLError(.badServerResponse)))
            return
        }
        if checksLength, http.expectedContentLength > 0, http.expectedContentLength > Int64(maxBytes) {
            completionHandler(.cancel)
            resumeHead(with: .failure(UpstreamSession.TooLarge()))
            return
        }
        completionHandler(.allow)
        resumeHead(with: .success(http))
    }

    func received(_ data: Data, task dataTask: URLSessionDataTask) {
        let (total, over) = lock.withLock { () -> (Int, Bool) in
            byteCount += data.count
            return (byteCount, byteCount > maxBytes)
        }
        guard over else {
            chunks?.yield(data)
            return
        }
        // Past the limit once: the stream ends, and what still arrives is dropped.
        if total - data.count <= maxBytes {
            UpstreamSession.cancel(dataTask)
            chunks?.finish(throwing: UpstreamSession.TooLarge())
        }
    }

    func completed(_ task: URLSessionTask, error: (any Error)?) {
        resumeHead(with: .failure(error ?? URLError(.badServerResponse)))
        // Fewer bytes than the upstream announced is a broken-off answer, not a short one.
        let announced = checksLength ? task.response?.expectedContentLength ?? -1 : -1
        if let error {
            chunks?.finish(throwing: error)
        } else if announced > 0, lock.withLock({ byteCount }) < announced {
            chunks?.finish(throwing: URLError(.networkConnectionLost))
        } else {
            chunks?.finish()
        }
        release()
    }
}
