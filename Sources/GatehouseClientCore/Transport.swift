import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; SDK products reach the network only through this, so tests and apps can replace it.
public protocol Transport: Sendable {
    /// Sends `request` and returns the body and response of whatever status the server answered.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `Transport` over URLSession.
public struct URLSessionTransport: Transport {
    private let session: URLSession

    /// A transport over `session`, or over an ephemeral session with a `timeout` per request when none is given;
    /// without `followsRedirects`, a 3xx is the answer (a redirect would carry the request's `Authorization`
    /// to wherever it points).
    public init(session: URLSession? = nil, timeout: TimeInterval = 30, followsRedirects: Bool = true) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            self.session = URLSession(configuration: configuration, delegate: followsRedirects ? nil : RefusesRedirects(), delegateQueue: nil)
        }
    }

    /// Sends `request` through the session.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await Self.data(session, for: request)
        guard let http = response as? HTTPURLResponse else { throw GatehouseClientError.unexpectedResponse("no HTTP response") }
        return (data, http)
    }

    /// URLSession's own async `data(for:)` cancels its task synchronously while it holds the
    /// Swift task's status lock, and on Linux the session's queue may at that moment be
    /// resuming the same task, which needs that lock: both wait forever (a task group that
    /// cancelled a request in flight hung a test run this way). And `URLSessionTask.cancel()`
    /// racing the task's own end traps in swift-corelibs-foundation. So a cancelled call here
    /// throws `CancellationError` at once, from another queue, and leaves the request to end
    /// on its own (within the session's timeout); its answer is dropped.
    static func data(_ session: URLSession, for request: URLRequest) async throws -> (Data, URLResponse) {
        let call = CancellableCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        call.finish(.failure(error))
                    } else if let data, let response {
                        call.finish(.success((data, response)))
                    } else {
                        call.finish(.failure(URLError(.badServerResponse)))
                    }
                }
                if call.hold(continuation) {
                    task.resume()
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            call.cancel()
        }
    }
}

// Safe: `continuation` and `cancelled` are only read and written under `lock` (`takeLocked` is called with it held).
/// One call's continuation, resumed once: by the request's end, or by the calling task's
/// cancellation, whichever comes first.
final class CancellableCall: @unchecked Sendable {
    typealias Answer = (Data, URLResponse)
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Answer, any Error>?
    private var cancelled = false

    /// Keeps `continuation`; false when the call was cancelled already (the request is then not sent).
    func hold(_ continuation: CheckedContinuation<Answer, any Error>) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            self.continuation = continuation
            return true
        }
    }

    func finish(_ result: Result<Answer, any Error>) {
        take()?.resume(with: result)
    }

    /// Never waits: it runs under the cancelled Swift task's status lock, which resuming the
    /// task needs too, so the resumption goes to another queue.
    func cancel() {
        let continuation = lock.withLock { () -> CheckedContinuation<Answer, any Error>? in
            cancelled = true
            return takeLocked()
        }
        if let continuation { DispatchQueue.global().async { continuation.resume(throwing: CancellationError()) } }
    }

    private func take() -> CheckedContinuation<Answer, any Error>? {
        lock.withLock { takeLocked() }
    }

    private func takeLocked() -> CheckedContinuation<Answer, any Error>? {
        defer { continuation = nil }
        return continuation
    }
}

/// Declines every redirect, so the 3xx itself reaches the caller.
final class RefusesRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
