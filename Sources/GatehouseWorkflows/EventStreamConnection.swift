import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Safe: `parser`, `continuation`, `session`, `task` and `ended` are only read and written under `lock`; `callbacks` is a
// `let` serial OperationQueue, itself thread-safe.
/// One open `text/event-stream` response, read as it arrives (URLSession's data delegate;
/// a buffered `data(for:)` would wait for an end that never comes).
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Failure: Error, Equatable {
        /// The server answered this status instead of a stream (401: the token was refused).
        case status(Int)
    }

    private let lock = NSLock()
    private var parser: ServerSentEventParser
    private var continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation?
    private var session: URLSession?
    private var task: URLSessionDataTask?
    /// The session's delegate queue, one operation at a time: a cancel is queued behind the
    /// callbacks, never run beside the one that ends the task (corelibs traps on that race).
    private let callbacks: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    /// Set on the delegate queue once the task has ended: it is not cancelled after that.
    private var ended = false

    init(lastEventID: String?) {
        parser = ServerSentEventParser(lastEventID: lastEventID ?? "")
    }

    /// The events of `request` until the stream ends, fails or the consumer stops.
    func events(_ request: URLRequest) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        AsyncThrowingStream { continuation in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 90  // heartbeats come every 15 s
            configuration.timeoutIntervalForResource = 24 * 3600
            let session = URLSession(configuration: configuration, delegate: self, delegateQueue: callbacks)
            let task = session.dataTask(with: request)
            lock.withLock {
                self.continuation = continuation
                self.session = session
                self.task = task
            }
            continuation.onTermination = { [weak self] _ in self?.close() }
            task.resume()
        }
    }

    /// Stops reading; the consumer's stream ends at once, the task is cancelled on the
    /// delegate queue unless it has ended by then.
    func close() {
        let (task, session) = lock.withLock { () -> (URLSessionDataTask?, URLSession?) in
            defer {
                self.task = nil
                self.session = nil
            }
            return (self.task, self.session)
        }
        guard task != nil || session != nil else { return }
        callbacks.addOperation { [self] in
            if !lock.withLock({ ended }) { task?.cancel() }
            session?.finishTasksAndInvalidate()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
        guard status == 200, type.lowercased().hasPrefix("text/event-stream") else {
            finish(throwing: Failure.status(status))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (events, continuation) = lock.withLock { (parser.feed(data), self.continuation) }
        for event in events { continuation?.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock { ended = true }
        finish(throwing: error)
    }

    private func finish(throwing error: (any Error)?) {
        let continuation = lock.withLock { () -> AsyncThrowingStream<ServerSentEvent, any Error>.Continuation? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.finish(throwing: error)
        close()
    }
}
