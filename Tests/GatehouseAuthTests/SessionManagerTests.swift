import Foundation
import GatehouseClientCore
import Testing
@testable import GatehouseAuth
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refresh rules of the guide's §04 and the notes' §6.4: one refresh at a time, refresh-and-retry once,
/// proactive refresh from local receive time, and sign-out only on definitive codes.
@Suite struct SessionManagerTests {
    /// With a store that takes no lock, only the actor's single in-flight task keeps this at one refresh.
    @Test(arguments: [true, false])
    func hundredConcurrentCallsShareOneRefresh(storeLocks: Bool) async throws {
        // A slow refresh, so every caller arrives while it is still out.
        let transport = rotatingServer(refreshDelay: .milliseconds(100))
        let clock = ManualClock()
        let store: any TokenStore = storeLocks ? InMemoryTokenStore(storedPair()) : UnlockedStore(storedPair())
        let client = makeClient(store: store, transport: transport, clock: clock)
        clock.advance(3600)
        let profiles = try await withThrowingTaskGroup(of: Profile.self) { group in
            for _ in 0..<100 { group.addTask { try await client.profile() } }
            return try await group.reduce(into: [Profile]()) { $0.append($1) }
        }
        #expect(profiles.count == 100)
        #expect(transport.count("auth/v1/refresh") == 1)
        #expect(transport.count("users/v1/profile") == 100)
        #expect(transport.requests.filter { apiPath($0) == "users/v1/profile" }.allSatisfy { bearer($0) == "a2" })
        #expect(try store.read() == storedPair("a2", "r2", receivedAt: clock.now))
    }

    @Test func unauthorizedRefreshesOnceAndRetriesOnce() async throws {
        let transport = rotatingServer()
        let store = InMemoryTokenStore(storedPair())
        let profile = try await makeClient(store: store, transport: transport).profile()
        #expect(profile.name == "Jane Doe")
        #expect(transport.paths == ["users/v1/profile", "auth/v1/refresh", "users/v1/profile"])
        #expect(transport.requests.map(bearer) == ["a1", nil, "a2"])
        #expect(try store.read()?.accessToken == "a2")
    }

    @Test func aSecondUnauthorizedDoesNotLoop() async throws {
        let transport = rotatingServer(validAccess: { "never" })
        let store = InMemoryTokenStore(storedPair())
        await #expect(throws: AuthError.api(status: 401, code: .tokenExpired, message: "Nope.", retryAfter: nil)) {
            try await makeClient(store: store, transport: transport).profile()
        }
        #expect(transport.paths == ["users/v1/profile", "auth/v1/refresh", "users/v1/profile"])
        #expect(try store.read()?.refreshToken == "r2")
    }

    @Test func aSessionEndedCodeOnTheRetrySignsOut() async throws {
        let transport = RouteTransport { request in
            if apiPath(request) == "auth/v1/refresh" { return .init(status: 200, body: pairJSON("a2", "r2")) }
            return .init(status: 401, body: errorJSON(401, code: "SESSION_EVICTED"))
        }
        let store = InMemoryTokenStore(storedPair())
        await #expect(throws: AuthError.signedOut(code: .sessionEvicted)) {
            try await makeClient(store: store, transport: transport).profile()
        }
        #expect(transport.paths.count == 3)
        #expect(try store.read() == nil)
    }

    @Test func proactiveRefreshSixtySecondsBeforeLocalExpiry() async throws {
        let transport = rotatingServer(validAccess: { "a1" })
        let clock = ManualClock()
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport, clock: clock)
        clock.advance(1800 - 61)
        #expect(try await client.session.validAccessToken() == "a1")
        #expect(transport.count("auth/v1/refresh") == 0)
        clock.advance(2)
        #expect(try await client.session.validAccessToken() == "a2")
        #expect(transport.count("auth/v1/refresh") == 1)
        // The new pair's clock starts when it was received, not when the old one was.
        clock.advance(1800 - 61)
        try await client.session.refreshIfNeeded()
        #expect(transport.count("auth/v1/refresh") == 1)
    }

    @Test(arguments: [
        RouteTransport.Reply(status: 500, body: errorJSON(500, code: nil)),
        RouteTransport.Reply(status: 503, body: "upstream down"),
        RouteTransport.Reply(status: 401, body: errorJSON(401, code: nil)),
        RouteTransport.Reply(status: 401, body: errorJSON(401, code: "SOMETHING_NEW")),
        RouteTransport.Reply(status: 400, body: errorJSON(400, code: "VALIDATION_FAILED")),
        RouteTransport.Reply(status: 403, body: errorJSON(403, code: "SESSION_EVICTED")),
    ])
    func refreshFailuresThatAreNotDefinitiveKeepTheTokens(reply: RouteTransport.Reply) async throws {
        let transport = RouteTransport { _ in reply }
        let clock = ManualClock()
        let store = InMemoryTokenStore(storedPair())
        let client = makeClient(store: store, transport: transport, clock: clock)
        clock.advance(3600)
        await #expect {
            try await client.session.refreshIfNeeded()
        } throws: { error in
            (error as? AuthError)?.status == reply.status
        }
        #expect(try store.read() == storedPair())
    }

    @Test func aNetworkErrorDuringRefreshKeepsTheTokens() async throws {
        let transport = RouteTransport { _ in throw URLError(.timedOut) }
        let clock = ManualClock()
        let store = InMemoryTokenStore(storedPair())
        let client = makeClient(store: store, transport: transport, clock: clock)
        clock.advance(3600)
        await #expect {
            try await client.profile()
        } throws: { error in
            if case .transport = error as? AuthError { return true }
            return false
        }
        #expect(try store.read() == storedPair())
    }

    @Test(arguments: ["SESSION_EVICTED", "TOKEN_REUSED", "TOKEN_EXPIRED", "SESSION_NOT_FOUND", "ACCOUNT_DELETED", "TOKEN_INVALID"])
    func aDefinitiveCodeSignsOut(code: String) async throws {
        let transport = RouteTransport { _ in .init(status: 401, body: errorJSON(401, code: code)) }
        let store = InMemoryTokenStore(storedPair())
        await #expect(throws: AuthError.signedOut(code: AuthErrorCode(rawValue: code))) {
            try await makeClient(store: store, transport: transport).profile()
        }
        #expect(transport.paths == ["users/v1/profile", "auth/v1/refresh"])
        #expect(try store.read() == nil)
    }

    @Test func aDefinitiveCodeKeepsANewerPairWrittenMeanwhile() async throws {
        let store = InMemoryTokenStore(storedPair())
        let transport = RouteTransport { request in
            if apiPath(request) == "auth/v1/refresh" {
                // Another writer stored a newer session while this refresh was out.
                try store.write(storedPair("a7", "r7"))
                return .init(status: 401, body: errorJSON(401, code: "TOKEN_REUSED"))
            }
            return bearer(request) == "a7" ? .init(status: 200, body: profileJSON) : .init(status: 401, body: errorJSON(401, code: nil))
        }
        #expect(try await makeClient(store: store, transport: transport).profile().name == "Jane Doe")
        #expect(try store.read() == storedPair("a7", "r7"))
    }

    @Test func aLateRefreshAnswerAfterSignOutIsDiscarded() async throws {
        let store = InMemoryTokenStore(storedPair())
        let transport = RouteTransport { request in
            try store.clear()
            return .init(status: 200, body: pairJSON("a2", "r2"))
        }
        let clock = ManualClock()
        let client = makeClient(store: store, transport: transport, clock: clock)
        clock.advance(3600)
        await #expect(throws: AuthError.signedOut(code: nil)) { try await client.session.refreshIfNeeded() }
        #expect(try store.read() == nil)
    }

    @Test func noStoredTokensMeansSignedOutWithoutARequest() async throws {
        let transport = rotatingServer()
        await #expect(throws: AuthError.signedOut(code: nil)) {
            try await makeClient(store: InMemoryTokenStore(), transport: transport).profile()
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func storeChangedByAnotherProcessBetweenTheUnauthorizedAndTheRefresh() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("tokens.json")
        let app = FileTokenStore(url: file)
        let extensionStore = FileTokenStore(url: file)
        try app.write(storedPair())
        let transport = RouteTransport { request in
            if apiPath(request) == "auth/v1/refresh" { return .init(status: 200, body: pairJSON("a2", "r2")) }
            if bearer(request) == "a1" {
                // The extension rotated the pair while this call was out.
                try extensionStore.write(storedPair("a5", "r5"))
                return .init(status: 401, body: errorJSON(401, code: "TOKEN_EXPIRED"))
            }
            return .init(status: 200, body: profileJSON)
        }
        _ = try await makeClient(store: app, transport: transport).profile()
        #expect(transport.paths == ["users/v1/profile", "users/v1/profile"])
        #expect(transport.requests.map(bearer) == ["a1", "a5"])
        #expect(try app.read() == storedPair("a5", "r5"))
    }

    @Test func cancellingTheCallerDuringARequestThrowsCancellationAndKeepsTokens() async throws {
        let transport = RouteTransport { _ in
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                throw URLError(.cancelled)
            }
            return .init(status: 200, body: profileJSON)
        }
        let store = InMemoryTokenStore(storedPair())
        let client = makeClient(store: store, transport: transport)
        let call = Task { try await client.profile() }
        await transport.sent(1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(try store.read() == storedPair())
    }

    @Test func cancellingTheCallerDuringARefreshThrowsCancellationAndKeepsTokens() async throws {
        let gate = Gate()
        let transport = RouteTransport { _ in
            await gate.wait()
            return .init(status: 503, body: "busy")
        }
        let clock = ManualClock()
        let store = InMemoryTokenStore(storedPair())
        let client = makeClient(store: store, transport: transport, clock: clock)
        clock.advance(3600)
        let call = Task { try await client.profile() }
        await transport.sent(1, to: "auth/v1/refresh")
        // A fallback so a regression fails the expectations below instead of hanging the suite.
        let fallback = Task {
            try await Task.sleep(for: .seconds(2))
            await gate.open()
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        // Returned while the shared refresh was still out: the caller did not wait for the network.
        #expect(await gate.isOpen == false)
        fallback.cancel()
        #expect(try store.read() == storedPair())
        await gate.open()
        await #expect(throws: AuthError.self) { try await client.session.refreshIfNeeded() }
        #expect(try store.read() == storedPair())
    }

    @Test func anAlreadyCancelledCallerSendsNothing() async throws {
        let transport = rotatingServer()
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.profile()
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requests.isEmpty)
    }

    @Test func autoRefreshStopsWhenSignedOut() async throws {
        let transport = RouteTransport { _ in .init(status: 401, body: errorJSON(401, code: "SESSION_NOT_FOUND")) }
        let clock = ManualClock()
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport, clock: clock)
        clock.advance(3600)
        await client.session.autoRefresh(every: .milliseconds(1))
        #expect(transport.count("auth/v1/refresh") == 1)
        #expect(try client.session.currentTokens() == nil)
    }
}

/// A store whose lock does nothing, to show the in-process gate on its own.
final class UnlockedStore: TokenStore, @unchecked Sendable {
    private let inner: InMemoryTokenStore
    init(_ pair: TokenPair) { inner = InMemoryTokenStore(pair) }
    func read() throws -> TokenPair? { try inner.read() }
    func write(_ pair: TokenPair) throws { try inner.write(pair) }
    func clear() throws { try inner.clear() }
    func withLock<T>(_ body: () async throws -> T) async throws -> T { try await body() }
}
