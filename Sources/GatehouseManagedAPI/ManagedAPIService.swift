import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Managed API Service (seed 002): named third-party APIs called with their auth applied, either
/// `direct` from the device (OAuth 2.0 tokens kept in `tokenStore`) or `proxied` through Gatehouse,
/// which adds the credential the device never sees.
///
/// The session is a token source, so this module needs no sign-in module; with `GatehouseAuth`:
///
///     ManagedAPIs.configure(ManagedAPIService(
///         baseURL: api, tokenStore: KeychainManagedAPITokenStore(), definitionCache: FileDefinitionCache(url: cacheFile),
///         consent: WebAuthenticationConsentPresenter(), redirectURI: URL(string: "com.example.app:/oauth")!
///     ) { rejected in try await auth.session.validAccessToken(rejected: rejected) })
public final class ManagedAPIService: Sendable {
    /// The session's access token: `rejected` is nil first, or the token Gatehouse just refused.
    public typealias AccessToken = @Sendable (_ rejected: String?) async throws -> String

    /// Gatehouse's `/api` URL.
    public let baseURL: URL
    /// Where `onSuccess` and `onError` of the callback-style functions run.
    public let callbackQueue: DispatchQueue
    let http: HTTPClient
    let accessToken: AccessToken
    let session: CredentialInterceptor<String>
    let tokenStore: any ManagedAPITokenStore
    let definitions: DefinitionState
    let syncs = SingleFlight<CachedDefinitions>(cancelsWithLastWaiter: true)
    let oauth: OAuthSession
    let now: @Sendable () -> Date
    /// How old the device's definitions may get before the next call checks them with the server.
    let definitionsMaxAge: TimeInterval

    /// A service over Gatehouse at `baseURL`. `redirectURI` is the OAuth 2.0 redirect the `consent`
    /// presenter catches (a private-use scheme on iOS, `LoopbackConsentPresenter.redirectURI` on Linux);
    /// `tokenExpiryLeeway` seconds early a token counts as expired. Definitions on the device are checked with the
    /// server (`If-None-Match`, usually a 304) at the first call and then every `definitionsMaxAge` seconds
    /// (`.infinity`: only by `sync()`); offline, the last ones are used. The default transport follows no redirect:
    /// a 3xx is an answer like any other, and a credential never travels to where a redirect points.
    public init(
        baseURL: URL, transport: any Transport = URLSessionTransport(followsRedirects: false), tokenStore: any ManagedAPITokenStore,
        definitionCache: any DefinitionCache, consent: any ConsentPresenter, redirectURI: URL,
        callbackQueue: DispatchQueue = ManagedAPIService.defaultCallbackQueue, tokenExpiryLeeway: TimeInterval = 60,
        definitionsMaxAge: TimeInterval = 300, now: @escaping @Sendable () -> Date = { Date() }, accessToken: @escaping AccessToken
    ) {
        self.baseURL = baseURL
        self.callbackQueue = callbackQueue
        self.accessToken = accessToken
        self.tokenStore = tokenStore
        self.now = now
        self.definitionsMaxAge = definitionsMaxAge
        http = HTTPClient(baseURL: baseURL, transport: transport, hooks: Self.hooks)
        session = .bearer(accessToken)
        definitions = DefinitionState(cache: definitionCache)
        oauth = OAuthSession(
            store: tokenStore, endpoint: TokenEndpoint(http: http, now: now), presenter: consent, redirectURI: redirectURI, now: now,
            leeway: tokenExpiryLeeway, pending: PendingAuthorizations(now: now))
    }

    /// The main queue on Apple platforms; a global queue elsewhere, where nothing may be running the main queue.
    public static var defaultCallbackQueue: DispatchQueue {
        #if canImport(Darwin)
        return .main
        #else
        return .global()
        #endif
    }

    /// Sets (or, with nil, forgets) the token a `direct` `BEARER_TOKEN` API is called with; kept in the token store.
    public func setBearerToken(_ token: String?, forAPI name: String) async throws {
        do {
            if let token {
                try await tokenStore.setTokens(StoredTokens(accessToken: token), for: .bearer(name))
            } else {
                try await tokenStore.removeTokens(for: .bearer(name))
            }
        } catch {
            throw ManagedAPIException.store(error)
        }
    }

    /// Runs `work` and hands its outcome to the callbacks on `callbackQueue`.
    func deliver<Value: Sendable>(
        _ work: @escaping @Sendable () async throws -> Value, onSuccess: @escaping (Value) -> Void, onError: ((any Error) -> Void)?
    ) {
        let callbacks = Callbacks(onSuccess: onSuccess, onError: onError)
        let queue = callbackQueue
        Task {
            do {
                let value = try await work()
                queue.async { callbacks.onSuccess(value) }
            } catch {
                queue.async { callbacks.onError?(error) }
            }
        }
    }

    /// Gatehouse's own refusal (the `X-Gatehouse-Error` header, the Datacove envelope) with the server's code passed through.
    static func refusal(_ answer: HTTPResponse) -> ManagedAPIException {
        let envelope = try? JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: answer.data)
        let header = answer.header(ManagedAPIWire.originHeader)?.trimmingCharacters(in: .whitespaces)
        let code = [header, envelope?.error.code].compactMap { $0 }.first { !$0.isEmpty } ?? ManagedAPIErrorCodes.GATEHOUSE_REFUSED
        return .code(aliases[code] ?? code, envelope?.error.message ?? "Gatehouse answered \(answer.status)", status: answer.status)
    }

    /// Server codes that mean one of the SDK's own: an API deleted on the server since the last sync is unknown.
    static let aliases = ["MANAGED_API_NOT_FOUND": ManagedAPIErrorCodes.UNKNOWN_API]

    static let hooks = ErrorHooks(
        status: { refusal($0) },
        transport: { ManagedAPIException.network($0) },
        decoding: { type, error in
            ManagedAPIException.code(ManagedAPIErrorCodes.UNEXPECTED_RESPONSE, "cannot decode \(type): \(error)")
        })
}

// Safe: both closures are immutable `let`s, only ever called from a block on the service's `callbackQueue`, once per
// delivery (`onSuccess` or `onError`, never both).
/// The caller's closures, which the seed's signatures do not mark `@Sendable`; they only ever run on the callback queue.
private struct Callbacks<Value>: @unchecked Sendable {
    let onSuccess: (Value) -> Void
    let onError: ((any Error) -> Void)?
}
