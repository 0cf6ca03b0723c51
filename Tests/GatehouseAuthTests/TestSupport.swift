import Foundation
import GatehouseTestEvents
import GatehouseClientCore
import Testing
@testable import GatehouseAuth
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let baseURL = URL(string: "http://127.0.0.1:8080/api")!
let start = Date(timeIntervalSince1970: 1_790_000_000)

/// Answers every request through a handler and records each one.
final class RouteTransport: Transport, @unchecked Sendable {
    struct Reply: Sendable {
        var status: Int
        var body: String
        var headers: [String: String] = [:]
    }

    typealias Handler = @Sendable (URLRequest) async throws -> Reply
    private let recorded = AwaitableList<URLRequest>()
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    var requests: [URLRequest] { recorded.all }

    /// Paths below `/api/`, in the order they were sent.
    var paths: [String] { requests.map(apiPath) }

    func count(_ path: String) -> Int { paths.filter { $0 == path }.count }

    /// Returns once `count` requests (to `path`, when given) have been sent; the handler may still be running.
    func sent(_ count: Int, to path: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        await recorded.until(sourceLocation: sourceLocation) { requests in
            requests.filter { path == nil || apiPath($0) == path }.count == count
        }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.append(request)
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

/// A one-shot signal tasks can wait for.
actor Gate {
    private(set) var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}

func apiPath(_ request: URLRequest) -> String {
    let path = request.url?.path ?? ""
    return path.hasPrefix("/api/") ? String(path.dropFirst(5)) : path
}

func bearer(_ request: URLRequest) -> String? {
    request.value(forHTTPHeaderField: "Authorization").map { String($0.dropFirst("Bearer ".count)) }
}

func pairJSON(_ access: String, _ refresh: String, expiresIn: Int = 1800) -> String {
    #"{"accessToken":"\#(access)","refreshToken":"\#(refresh)","expiresIn":\#(expiresIn)}"#
}

func errorJSON(_ status: Int, code: String?, message: String = "Nope.", path: String = "/api/auth/v1/refresh") -> String {
    let codeField = code.map { #","code":"\#($0)""# } ?? ""
    return #"""
    {"statusCode":\#(status),"timestamp":"2026-10-02T09:30:00.000Z","path":"\#(path)","error":{"statusCode":\#(status),"error":"Error","message":"\#(message)"\#(codeField)}}
    """#
}

let profileJSON = #"""
{"name":"Jane Doe","phone":"14165550199","email":null,"country":"CA","timezone":"America/Toronto","status":"ACTIVE","wallet":{"WALLET":25,"TRIAL":0,"SUBSCRIPTION":0}}
"""#

/// Parses JSON so bodies compare by meaning, not by key order or spacing.
func json(_ data: Data?) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: try #require(data))
}

func json(_ text: String) throws -> JSONValue { try json(Data(text.utf8)) }

/// A pair received at `start`, so `ManualClock` decides whether it has expired.
func storedPair(_ access: String = "a1", _ refresh: String = "r1", receivedAt: Date = start) -> TokenPair {
    TokenPair(accessToken: access, refreshToken: refresh, expiresIn: 1800, receivedAt: receivedAt)
}

func makeClient(
    store: any TokenStore, transport: RouteTransport, clock: ManualClock = ManualClock(),
    appVersion: String? = "2.4.1", deviceName: String? = "Jane's iPhone"
) -> AuthClient {
    AuthClient(
        baseURL: baseURL, apiKey: "pk_ios_test", tokenStore: store, transport: transport, appVersion: appVersion,
        deviceName: deviceName, now: { clock.now })
}

/// A server that accepts one access token for the profile and rotates `r<n>` into `a<n+1>`/`r<n+1>`.
func rotatingServer(validAccess: @escaping @Sendable () -> String = { "a2" }, refreshDelay: Duration = .zero) -> RouteTransport {
    RouteTransport { request in
        switch apiPath(request) {
        case "auth/v1/refresh":
            if refreshDelay > .zero { try await Task.sleep(for: refreshDelay) }
            let body = try JSONDecoder().decode([String: String].self, from: request.httpBody ?? Data())
            let number = Int(body["refreshToken"]?.dropFirst() ?? "") ?? 0
            return .init(status: 200, body: pairJSON("a\(number + 1)", "r\(number + 1)"))
        case "users/v1/profile" where bearer(request) == validAccess():
            return .init(status: 200, body: profileJSON)
        default:
            return .init(status: 401, body: errorJSON(401, code: "TOKEN_EXPIRED", path: "/api/users/v1/profile"))
        }
    }
}


/// A thread-safe list whose conditions tests await: each is checked when registered and after every append.
final class AwaitableList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []
    private var waiters: [(condition: ([Element]) -> Bool, latch: Latch)] = []

    var all: [Element] { lock.withLock { items } }

    func append(_ item: Element) {
        let due = lock.withLock { () -> [Latch] in
            items.append(item)
            var due: [Latch] = []
            waiters.removeAll { waiter in
                guard waiter.condition(items) else { return false }
                due.append(waiter.latch)
                return true
            }
            return due
        }
        for latch in due { latch.signal() }
    }

    /// Returns once `condition` holds, failing after five seconds rather than hanging the suite.
    func until(sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping ([Element]) -> Bool) async {
        let latch = Latch()
        let holds = lock.withLock { () -> Bool in
            if condition(items) { return true }
            waiters.append((condition, latch))
            return false
        }
        if !holds, !(await latch.wait()) { Issue.record("condition never became true", sourceLocation: sourceLocation) }
    }
}

/// A fresh directory under the temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-auth-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
