import Foundation
import GatehouseClientCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands out valid access tokens and sends authenticated requests; the one place this process refreshes.
///
/// Every trigger (a call finding the token about to expire, a 401, `refreshIfNeeded()` on a timer or on
/// foreground) goes through one in-flight refresh task. Across processes the store's lock does the same.
public actor SessionManager {
    let http: HTTPClient
    /// Where the token pair lives.
    public nonisolated let store: any TokenStore
    /// Seconds before local expiry at which the access token is refreshed.
    public nonisolated let refreshMargin: TimeInterval
    nonisolated let now: @Sendable () -> Date
    private var inFlight: (id: UInt64, task: Task<TokenPair, any Error>)?
    private var lastID: UInt64 = 0

    /// A session manager calling `baseURL` (ending in `/api`) through `transport`, timing expiry with `now`.
    public init(
        baseURL: URL, store: any TokenStore, transport: any Transport = URLSessionTransport(), appVersion: String? = nil,
        refreshMargin: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() },
        logger: (@Sendable (String) -> Void)? = nil
    ) {
        let http = AuthHTTP.client(baseURL: baseURL, transport: transport, appVersion: appVersion, logger: logger)
        self.init(http: http, store: store, refreshMargin: refreshMargin, now: now)
    }

    init(http: HTTPClient, store: any TokenStore, refreshMargin: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.http = http
        self.store = store
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// An access token good for at least `refreshMargin` seconds; pass the token a server just rejected to replace it.
    public func validAccessToken(rejected: String? = nil) async throws -> String {
        try await validPair(rejected: rejected).accessToken
    }

    /// Refreshes now if the access token is within `refreshMargin` of expiry; call it on foreground and from a timer.
    public func refreshIfNeeded() async throws {
        _ = try await validPair(rejected: nil)
    }

    /// The stored pair, without refreshing.
    public nonisolated func currentTokens() throws -> TokenPair? { try store.read() }

    /// Stores a pair the server just issued (sign-in, activate), stamping its receive time if it has none.
    public func save(_ pair: TokenPair) async throws {
        let stamped = pair.receivedAt == nil ? pair.received(at: now()) : pair
        // Under the refresh lock, so a refresh in another process cannot overwrite it with the old session's pair.
        try await store.withLock { try store.write(stamped) }
    }

    /// Forgets the stored pair; a refresh still in flight sees the empty store and discards its answer.
    public func clearTokens() async throws {
        try await store.withLock { try store.clear() }
    }

    /// Calls `refreshIfNeeded()` every `interval` until the calling task is cancelled or the session ends.
    ///
    /// Failures other than a sign-out are swallowed on purpose: the next tick simply tries again.
    public nonisolated func autoRefresh(every interval: Duration = .seconds(30)) async {
        while !Task.isCancelled {
            do {
                try await refreshIfNeeded()
            } catch AuthError.signedOut {
                return
            } catch {}
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// Sends `request` (a path relative to the base URL, a method, a body) with the Bearer token, for other SDK modules.
    ///
    /// Refreshes first when the token is about to expire; on a 401 refreshes once and retries once, never more.
    /// Returns only 2xx answers; throws `AuthError` (`.signedOut` when the session is over) or `CancellationError`.
    public nonisolated func authorizedRequest(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await authorizedResponse(request)
        guard (200..<300).contains(response.statusCode) else {
            throw AuthHTTP.apiError(status: response.statusCode, data: data, response: response)
        }
        return (data, response)
    }

    /// Like `authorizedRequest(_:)`, but returns every answer other than a 401 as it came, for
    /// callers that read fields of an error body (the purchase transfer offer's `canTransfer`).
    public nonisolated func authorizedResponse(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let bearer = CredentialInterceptor.bearer { rejected in try await self.validAccessToken(rejected: rejected) }
        let (answer, token) = try await bearer.send(request, through: http)
        if answer.status == 401 {
            // A fresh token was still refused: only a code saying the session is gone ends it; no second retry.
            let refusal = AuthHTTP.apiError(status: 401, data: answer.data, response: answer.response)
            if let code = refusal.code, AuthErrorCode.sessionEndedCodes.contains(code) {
                try await clearTokens(ifAccessToken: token)
                throw AuthError.signedOut(code: code)
            }
        }
        return (answer.data, answer.response)
    }

    /// Sends an authorized request and decodes its JSON answer.
    nonisolated func authorized<Reply: Decodable>(_ request: URLRequest, as reply: Reply.Type) async throws -> Reply {
        let (data, _) = try await authorizedRequest(request)
        return try AuthHTTP.decode(Reply.self, from: data)
    }

    // MARK: - Single flight

    func validPair(rejected: String?) async throws -> TokenPair {
        try Task.checkCancellation()
        if let inFlight { return try await cancellableValue(of: inFlight.task) }
        guard let current = try store.read() else { throw AuthError.signedOut(code: nil) }
        if let rejected {
            // Someone else already replaced the rejected token: use theirs.
            if current.accessToken != rejected { return current }
        } else if !current.needsRefresh(at: now(), margin: refreshMargin) {
            return current
        }
        return try await startRefresh(seen: current.refreshToken)
    }

    private func startRefresh(seen: String) async throws -> TokenPair {
        lastID &+= 1
        let id = lastID
        let refresher = Refresher(http: http, store: store, now: now)
        // Unstructured on purpose: the refresh belongs to every waiter, so no single caller's cancellation stops it.
        let task = Task<TokenPair, any Error> {
            let result: Result<TokenPair, any Error>
            do {
                result = .success(try await refresher.refresh(seen: seen))
            } catch {
                result = .failure(error)
            }
            // Cleared before anyone sees the result, so the next caller reads the store rather than a finished task.
            self.finishRefresh(id)
            return try result.get()
        }
        inFlight = (id, task)
        return try await cancellableValue(of: task)
    }

    private func finishRefresh(_ id: UInt64) {
        if inFlight?.id == id { inFlight = nil }
    }

    /// Clears the store only if it still holds `accessToken`: a newer pair belongs to a newer session.
    private func clearTokens(ifAccessToken accessToken: String) async throws {
        try await store.withLock {
            if try store.read()?.accessToken == accessToken { try store.clear() }
        }
    }
}
