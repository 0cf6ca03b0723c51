import Foundation
import GatehouseClientCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Consent through the system browser with a loopback redirect (RFC 8252 §7.3), for Linux and command-line
/// tools: listens on `http://127.0.0.1:<port>/callback`, opens the authorization URL through `open`, and
/// returns the first `GET /callback?…` that arrives.
///
/// Pass `redirectURI` to the service as its redirect URI. The socket is bound at `init` and closed when the
/// presenter goes away; consents through one presenter run one at a time.
public final class LoopbackConsentPresenter: ConsentPresenter, Sendable {
    /// `http://127.0.0.1:<port><path>`, the URI to register with the provider (any port must be accepted, RFC 8252 §7.3).
    public let redirectURI: URL
    /// How long to wait for the browser's callback before giving up with `OAUTH_CANCELLED`.
    public let timeout: TimeInterval
    private let descriptor: Int32
    private let port: UInt16
    private let path: String
    private let open: @Sendable (URL) async throws -> Void
    private let serial = AsyncMutex()

    /// A presenter listening on 127.0.0.1:`port` (0 picks a free one) that shows each authorization URL through `open`
    /// (a CLI prints it or runs `xdg-open`).
    public init(
        port: UInt16 = 0, path: String = "/callback", timeout: TimeInterval = 300, open: @escaping @Sendable (URL) async throws -> Void
    ) throws {
        let listener = try LoopbackSocket.listen(port: port)
        descriptor = listener.descriptor
        self.port = listener.port
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.timeout = timeout
        self.open = open
        redirectURI = URL(string: "http://127.0.0.1:\(listener.port)\(self.path)")!
    }

    deinit { close(descriptor) }

    /// Opens the authorization URL and waits for the browser to come back to `redirectURI`.
    public func present(authorizationURL: URL, redirectURI: URL) async throws -> URL {
        guard redirectURI == self.redirectURI else {
            throw ManagedAPIException.code(
                ManagedAPIErrorCodes.OAUTH_FAILED, "the service's redirect URI must be this presenter's \(self.redirectURI.absoluteString)")
        }
        return try await serial.withLock {
            let state = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value
            let attempt = Attempt(deadline: Date().addingTimeInterval(timeout), state: state)
            // The listening thread starts before the browser opens, not whenever a child task
            // gets a turn on the cooperative pool: a busy pool must not leave the browser's
            // callback unanswered in the backlog.
            let callback = Callback()
            Thread.detachNewThread { [self] in callback.settle(self.acceptCallback(attempt)) }
            return try await withTaskCancellationHandler {
                do {
                    try await open(authorizationURL)
                } catch {
                    attempt.cancel()
                    _ = try? await callback.value()
                    if let known = error as? ManagedAPIException { throw known }
                    throw ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_FAILED, "the browser could not be opened: \(error)")
                }
                return try await callback.value()
            } onCancel: {
                attempt.cancel()
            }
        }
    }

    private func acceptCallback(_ attempt: Attempt) -> Result<URL, any Error> {
        while !attempt.isCancelled, Date() < attempt.deadline {
            guard let client = LoopbackSocket.accept(descriptor, waiting: 200) else { continue }
            guard let line = LoopbackSocket.requestLine(client) else {
                LoopbackSocket.answer(client, Self.page(400, "Bad Request", "The request could not be read."))
                continue
            }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            let target = parts.count == 3 ? String(parts[1]) : ""
            let targetPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard parts.first == "GET", targetPath == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
                // A favicon or a stray request: the real callback may still come.
                LoopbackSocket.answer(client, Self.page(404, "Not Found", "Nothing here."))
                continue
            }
            // An old tab reloaded, or another page calling back: not this attempt's answer.
            let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value
            guard attempt.state == nil || state == attempt.state else {
                LoopbackSocket.answer(client, Self.page(400, "Bad Request", "This sign-in link is not the one the app is waiting for."))
                continue
            }
            LoopbackSocket.answer(client, Self.page(200, "OK", "You can close this window and return to the app."))
            return .success(url)
        }
        let reason = attempt.isCancelled ? "the consent was cancelled" : "no callback came within \(Int(timeout)) s"
        return .failure(ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_CANCELLED, reason))
    }

    /// A small fixed page; nothing from the request is echoed into it.
    static func page(_ status: Int, _ reason: String, _ text: String) -> [UInt8] {
        let html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(text)</title></head><body><p>\(text)</p></body></html>"
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(html.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        return Array((head + html).utf8)
    }

    // Safe: `cancelled` is only read and written under `lock`; `deadline` and `state` are immutable `let`s.
    /// One wait: its deadline and a cancel flag the accepting thread checks between polls.
    private final class Attempt: @unchecked Sendable {
        let deadline: Date
        /// The `state` the authorization request carried; a callback with another is not this attempt's.
        let state: String?
        private let lock = NSLock()
        private var cancelled = false

        init(deadline: Date, state: String?) {
            self.deadline = deadline
            self.state = state
        }

        var isCancelled: Bool { lock.withLock { cancelled } }

        func cancel() { lock.withLock { cancelled = true } }
    }

    // Safe: `result` and `waiter` are only read and written under `lock`.
    /// The accepting thread's result, awaited once.
    private final class Callback: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<URL, any Error>?
        private var waiter: CheckedContinuation<URL, any Error>?

        func settle(_ outcome: Result<URL, any Error>) {
            let waiting = lock.withLock { () -> CheckedContinuation<URL, any Error>? in
                result = outcome
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(with: outcome)
        }

        func value() async throws -> URL {
            try await withCheckedThrowingContinuation { continuation in
                let ready = lock.withLock { () -> Result<URL, any Error>? in
                    if result == nil { waiter = continuation }
                    return result
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
