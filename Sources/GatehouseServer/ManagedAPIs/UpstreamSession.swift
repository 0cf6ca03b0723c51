import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends proxied calls upstream and hands back the response head as soon as it arrives, with
/// the body as a stream of chunks, so a large answer passes through without being held whole.
/// Redirects are never followed (the 3xx is the answer: its target was never vetted), and a
/// body past `maxBytes` ends the stream with `UpstreamSession.TooLarge`.
final class UpstreamSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct TooLarge: Error {}

    /// One call in flight: its head, then its chunks.
    final class Call: @unchecked Sendable {
        let maxBytes: Int
        let checksLength: Bool
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var chunks: AsyncThrowingStream<Data, any Error>.Continuation?
        var received = 0
        init(maxBytes: Int, checksLength: Bool) {
            self.maxBytes = maxBytes
            self.checksLength = checksLength
        }
    }

    /// What `open` answers: the head and the rest of the body.
    struct Answer: Sendable {
        let response: HTTPURLResponse
        let body: AsyncThrowingStream<Data, any Error>
        let cancel: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var calls: [Int: Call] = [:]
    private var session: URLSession!

    init(timeout: TimeInterval) {
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

    /// Sends `request`; returns once the response head is in.
    func open(_ request: URLRequest, maxBytes: Int) async throws -> Answer {
        // A HEAD answer announces the length of a body it does not send.
        let call = Call(maxBytes: maxBytes, checksLength: request.httpMethod != "HEAD")
        let task = session.dataTask(with: request)
        let body = AsyncThrowingStream<Data, any Error>(bufferingPolicy: .unbounded) { continuation in
            call.chunks = continuation
            // Nobody reads the rest (the client left): the transfer stops.
            continuation.onTermination = { _ in task.cancel() }
        }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPURLResponse, any Error>) in
                lock.withLock {
                    call.head = continuation
                    calls[task.taskIdentifier] = call
                }
                // Cancelled before the waiter was in place: the handler above found nothing to let go.
                if Task.isCancelled {
                    resumeHead(call, with: .failure(CancellationError()))
                    return
                }
                task.resume()
            }
        } onCancel: {
            // A task cancelled before it ran may never report its end: the waiter is let go here.
            task.cancel()
            _ = lock.withLock { calls.removeValue(forKey: task.taskIdentifier) }
            resumeHead(call, with: .failure(CancellationError()))
            call.chunks?.finish(throwing: CancellationError())
        }
        return Answer(response: response, body: body, cancel: { task.cancel() })
    }

    private func call(_ task: URLSessionTask) -> Call? { lock.withLock { calls[task.taskIdentifier] } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let call = call(dataTask), let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        if call.checksLength, let length = http.expectedContentLength > 0 ? Int(http.expectedContentLength) : nil, length > call.maxBytes {
            completionHandler(.cancel)
            resumeHead(call, with: .failure(TooLarge()))
            return
        }
        completionHandler(.allow)
        resumeHead(call, with: .success(http))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let call = call(dataTask) else { return }
        let over = lock.withLock { () -> Bool in
            call.received += data.count
            return call.received > call.maxBytes
        }
        if over {
            dataTask.cancel()
            call.chunks?.finish(throwing: TooLarge())
            return
        }
        call.chunks?.yield(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let call = lock.withLock { calls.removeValue(forKey: task.taskIdentifier) }
        guard let call else { return }
        resumeHead(call, with: .failure(error ?? URLError(.badServerResponse)))
        if let error { call.chunks?.finish(throwing: error) } else { call.chunks?.finish() }
    }

    /// Resumes the head's waiter once, whichever event comes first.
    private func resumeHead(_ call: Call, with result: Result<HTTPURLResponse, any Error>) {
        let head = lock.withLock { () -> CheckedContinuation<HTTPURLResponse, any Error>? in
            defer { call.head = nil }
            return call.head
        }
        head?.resume(with: result)
    }
}
