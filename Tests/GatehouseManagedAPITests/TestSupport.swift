import Foundation
import GatehouseClientCore
import GatehouseTestEvents
import GatehouseWire
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let gatehouse = URL(string: "http://gatehouse.test/api")!
let redirect = URL(string: "com.example.app:/oauth")!
let start = Date(timeIntervalSince1970: 1_790_000_000)

/// Answers each request through a handler (per URL, as the test scripts it) and records every one.
final class ScriptedTransport: Transport, @unchecked Sendable {
    struct Reply: Sendable {
        var status: Int
        var body: String = ""
        var headers: [String: String] = [:]
    }

    typealias Handler = @Sendable (URLRequest) async throws -> Reply
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private let handler: Handler
    /// Told of each request as it is sent, for tests that check an order of events.
    var onSend: (@Sendable (URLRequest) -> Void)?

    init(_ handler: @escaping Handler) { self.handler = handler }

    var requests: [URLRequest] { lock.withLock { recorded } }

    func requests(to host: String, path: String? = nil) -> [URLRequest] {
        requests.filter { $0.url?.host == host && (path == nil || $0.url?.path == path) }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { recorded.append(request) }
        onSend?(request)
        let reply = try await handler(request)
        let response = HTTPURLResponse(url: request.url!, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)!
        return (Data(reply.body.utf8), response)
    }
}

/// A clock tests move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ date: Date = start) { current = date }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

/// A thread-safe counter and log.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
    func count(_ entry: String) -> Int { all.filter { $0 == entry }.count }
}

enum Fixture {
    static let spotifyClient = ManagedAPIWire.OAuth2Client(
        authorizationEndpoint: "https://accounts.spotify.test/authorize", tokenEndpoint: "https://accounts.spotify.test/api/token",
        clientId: "cid", scopes: ["user-top-read", "user-read-email"], authorizationParams: ["access_type": "offline", "state": "evil"],
        rotatesRefreshTokens: true)
    static let spotify = ManagedAPIWire.Definition(
        name: "spotify", displayName: "Spotify", baseUrl: "https://api.spotify.test/v1", authType: "OAUTH2", mode: "direct",
        metadata: ["category": "music"], oauth2: spotifyClient)
    static let open = ManagedAPIWire.Definition(
        name: "open", displayName: "Open data", baseUrl: "https://open.example.test/v1/", authType: "NONE", mode: "direct")
    static let tokened = ManagedAPIWire.Definition(
        name: "tokened", displayName: "Tokened", baseUrl: "https://bearer.example.test", authType: "BEARER_TOKEN", mode: "direct")
    static let basic = ManagedAPIWire.Definition(
        name: "basic", displayName: "Basic", baseUrl: "https://basic.example.test", authType: "BASIC", mode: "direct")
    static let crm = ManagedAPIWire.Definition(
        name: "crm", displayName: "CRM", baseUrl: "https://crm.example.test", authType: "API_KEY", mode: "proxied")
    static let all = [spotify, open, tokened, basic, crm]
    static let spotifyKey = TokenKey.oauth2("spotify", spotifyClient)

    static var cached: CachedDefinitions { CachedDefinitions(etag: "\"v1\"", definitions: all) }
}

/// A consent that approves at once: it reads `state` from the authorization URL and comes back with `code`.
func approving(code: String = "code1", seen: Log? = nil) -> ClosureConsentPresenter {
    ClosureConsentPresenter { url, redirectURI in
        seen?.append(url.absoluteString)
        let state = query(url)["state"] ?? ""
        return URL(string: "\(redirectURI.absoluteString)?code=\(code)&state=\(state)")!
    }
}

/// A consent that must never be shown.
func refusing(_ seen: Log) -> ClosureConsentPresenter {
    ClosureConsentPresenter { url, _ in
        seen.append(url.absoluteString)
        throw ManagedAPIException(errorCode: "TEST", message: "the presenter was called")
    }
}

func makeService(
    _ transport: ScriptedTransport, store: any ManagedAPITokenStore = MemoryManagedAPITokenStore(),
    cache: any DefinitionCache = MemoryDefinitionCache(Fixture.cached), consent: any ConsentPresenter = approving(),
    clock: ManualClock = ManualClock(), queue: DispatchQueue = .global(), session: ManagedAPIService.AccessToken? = nil,
    definitionsMaxAge: TimeInterval = .infinity
) -> ManagedAPIService {
    ManagedAPIService(
        baseURL: gatehouse, transport: transport, tokenStore: store, definitionCache: cache, consent: consent, redirectURI: redirect,
        callbackQueue: queue, definitionsMaxAge: definitionsMaxAge, now: { clock.now }, accessToken: session ?? { _ in "s1" })
}

func query(_ url: URL?) -> [String: String] {
    guard let url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return [:] }
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
}

/// The fields of a form body.
func form(_ request: URLRequest) -> [String: String] {
    let text = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
        fields[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return fields
}

func bearer(_ request: URLRequest) -> String? {
    request.value(forHTTPHeaderField: "Authorization").map { String($0.dropFirst("Bearer ".count)) }
}

func tokenJSON(_ access: String, refresh: String? = nil, expiresIn: Int? = 3600, scope: String? = nil) -> String {
    var fields = [#""access_token":"\#(access)""#, #""token_type":"Bearer""#]
    if let refresh { fields.append(#""refresh_token":"\#(refresh)""#) }
    if let expiresIn { fields.append(#""expires_in":\#(expiresIn)"#) }
    if let scope { fields.append(#""scope":"\#(scope)""#) }
    return "{" + fields.joined(separator: ",") + "}"
}

func gatehouseError(_ status: Int, _ code: String, _ message: String = "Refused.") -> ScriptedTransport.Reply {
    .init(
        status: status, body: #"{"statusCode":\#(status),"error":{"statusCode":\#(status),"code":"\#(code)","message":"\#(message)"}}"#,
        headers: ["X-Gatehouse-Error": code, "Content-Type": "application/json"])
}

/// The `ManagedAPIException` `body` throws, or a recorded issue.
func exception(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Any) async -> ManagedAPIException? {
    do {
        _ = try await body()
        Issue.record("no error was thrown", sourceLocation: sourceLocation)
    } catch let error as ManagedAPIException {
        return error
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A fresh directory under the temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-managed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
