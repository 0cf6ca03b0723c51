import Foundation
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refresh: single-flight, merge, persistence before use, terminal and transient failures, the 401 path (L1–L5).
@Suite struct OAuthRefreshTests {
    static func expired(_ access: String = "a1", refresh: String? = "r1") -> MemoryManagedAPITokenStore {
        MemoryManagedAPITokenStore([
            Fixture.spotifyKey: StoredTokens(accessToken: access, refreshToken: refresh, expiresAt: start.addingTimeInterval(-10), scope: "user-top-read")
        ])
    }

    static func fresh(_ access: String = "a1", refresh: String? = "r1") -> MemoryManagedAPITokenStore {
        MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: access, refreshToken: refresh, expiresAt: start.addingTimeInterval(3600))])
    }

    @Test func aFreshTokenIsUsedAsItIs() async throws {
        let transport = provider { _ in .init(status: 500) }
        let answer = try await makeService(transport, store: Self.fresh()).fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.ok && transport.tokenRequests.isEmpty && transport.apiRequests.map(bearer) == ["a1"])
    }

    @Test func anUnknownExpiryCountsAsFresh() async throws {
        let store = MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: "a1", refreshToken: "r1")])
        let transport = provider { _ in .init(status: 500) }
        _ = try await makeService(transport, store: store).fetch(name: "spotify", relativeUrl: "/me")
        #expect(transport.tokenRequests.isEmpty)
    }

    @Test func aTokenExpiringWithinTheLeewayIsRefreshed() async throws {
        let store = MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: "a1", refreshToken: "r1", expiresAt: start.addingTimeInterval(30))])
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a2")) }
        _ = try await makeService(transport, store: store).fetch(name: "spotify", relativeUrl: "/me")
        #expect(transport.tokenRequests.count == 1 && transport.apiRequests.map(bearer) == ["a2"])
    }

    @Test func tenConcurrentFetchesOnAnExpiredTokenRefreshOnce() async throws {
        let transport = provider { fields in
            try await Task.sleep(for: .milliseconds(300))
            return .init(status: 200, body: tokenJSON("a2", refresh: fields["refresh_token"] == "r1" ? "r2" : "bad"))
        }
        let service = makeService(transport, store: Self.expired())
        let answers = try await withThrowingTaskGroup(of: ManagedApiFetchResponse.self) { group in
            for _ in 0..<10 { group.addTask { try await service.fetch(name: "spotify", relativeUrl: "/me") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 10 && answers.allSatisfy(\.ok))
        #expect(transport.tokenRequests.count == 1)
        #expect(Set(transport.apiRequests.map(bearer)) == ["a2"])
    }

    @Test func aRefreshWithoutRefreshTokenOrScopeKeepsTheOldOnes() async throws {
        let store = Self.expired()
        let clock = ManualClock()
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a2", expiresIn: 600)) }
        _ = try await makeService(transport, store: store, clock: clock).fetch(name: "spotify", relativeUrl: "/me")
        let fields = form(try #require(transport.tokenRequests.first))
        #expect(fields == ["grant_type": "refresh_token", "refresh_token": "r1", "client_id": "cid"])
        #expect(store.all[Fixture.spotifyKey] == StoredTokens(
            accessToken: "a2", refreshToken: "r1", expiresAt: start.addingTimeInterval(600), scope: "user-top-read", tokenType: "Bearer"))
    }

    @Test func aRotatedRefreshTokenIsSavedBeforeTheNewAccessTokenIsUsed() async throws {
        let events = Log()
        let store = RecordingStore(Self.expired(), events)
        let transport = provider(api: { request in
            events.append("api:\(bearer(request) ?? "")")
            return .init(status: 200)
        }) { _ in .init(status: 200, body: tokenJSON("a2", refresh: "r2")) }
        _ = try await makeService(transport, store: store).fetch(name: "spotify", relativeUrl: "/me")
        #expect(events.all == ["saved:a2/r2", "api:a2"])
    }

    @Test func invalidGrantDropsTheTokensAndRunsConsent() async throws {
        let seen = Log()
        let store = Self.expired()
        let transport = provider { fields in
            fields["grant_type"] == "refresh_token"
                ? .init(status: 400, body: #"{"error":"invalid_grant","error_description":"revoked"}"#)
                : .init(status: 200, body: tokenJSON("a3", refresh: "r3"))
        }
        _ = try await makeService(transport, store: store, consent: approving(seen: seen)).fetch(name: "spotify", relativeUrl: "/me")
        #expect(seen.all.count == 1)
        #expect(transport.tokenRequests.map { form($0)["grant_type"] } == ["refresh_token", "authorization_code"])
        #expect(store.all[Fixture.spotifyKey]?.refreshToken == "r3")
    }

    @Test func invalidGrantUnderNeverIsInteractionRequiredWithTheTokensGone() async {
        let seen = Log()
        let store = Self.expired()
        let transport = provider { _ in .init(status: 400, body: #"{"error":"invalid_grant"}"#) }
        let error = await exception {
            try await makeService(transport, store: store, consent: refusing(seen))
                .fetch(name: "spotify", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never))
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE)
        #expect(seen.all.isEmpty && store.all.isEmpty)
    }

    @Test func neverRefreshesWithoutUI() async throws {
        let seen = Log()
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a2")) }
        let answer = try await makeService(transport, store: Self.expired(), consent: refusing(seen))
            .fetch(name: "spotify", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never))
        #expect(answer.ok && seen.all.isEmpty && transport.apiRequests.map(bearer) == ["a2"])
    }

    @Test func aServerErrorKeepsTheTokensAndFailsTheCall() async {
        let store = Self.expired()
        let seen = Log()
        let transport = provider { _ in .init(status: 503, body: "down") }
        let error = await exception { try await makeService(transport, store: store, consent: refusing(seen)).fetch(name: "spotify", relativeUrl: "/me") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED && error?.statusCode == 503)
        #expect(store.all[Fixture.spotifyKey]?.refreshToken == "r1" && seen.all.isEmpty && transport.apiRequests.isEmpty)
    }

    @Test func anUnreachableTokenEndpointIsNetworkWithTheTokensKept() async {
        let store = Self.expired()
        let transport = provider { _ in throw URLError(.timedOut) }
        let error = await exception { try await makeService(transport, store: store).fetch(name: "spotify", relativeUrl: "/me") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.NETWORK)
        #expect(store.all[Fixture.spotifyKey]?.refreshToken == "r1")
    }

    @Test func a401ForcesOneRefreshAndOneRetry() async throws {
        let transport = provider(api: { request in .init(status: bearer(request) == "a2" ? 200 : 401) }) { _ in
            .init(status: 200, body: tokenJSON("a2"))
        }
        let answer = try await makeService(transport, store: Self.fresh()).fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.status == 200)
        #expect(transport.tokenRequests.count == 1 && transport.apiRequests.map(bearer) == ["a1", "a2"])
    }

    @Test func aSecond401IsReturnedAsTheResponse() async throws {
        let transport = provider(api: { _ in .init(status: 401, body: "no") }) { _ in .init(status: 200, body: tokenJSON("a2")) }
        let answer = try await makeService(transport, store: Self.fresh()).fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.status == 401 && !answer.ok && answer.body as? String == "no")
        #expect(transport.tokenRequests.count == 1 && transport.apiRequests.count == 2)
    }

    @Test func a403IsReturnedWithoutARefresh() async throws {
        let transport = provider(api: { _ in .init(status: 403) }) { _ in .init(status: 200, body: tokenJSON("a2")) }
        let answer = try await makeService(transport, store: Self.fresh()).fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.status == 403 && transport.tokenRequests.isEmpty && transport.apiRequests.count == 1)
    }

    @Test func a401RightAfterConsentIsReturnedWithoutASecondConsent() async throws {
        let seen = Log()
        let transport = provider(api: { _ in .init(status: 401) }) { _ in .init(status: 200, body: tokenJSON("a1")) }
        let answer = try await makeService(transport, consent: approving(seen: seen)).fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.status == 401 && seen.all.count == 1 && transport.apiRequests.count == 1)
    }
}

/// A store that logs each save, so a test can order saves against network calls.
final class RecordingStore: ManagedAPITokenStore, @unchecked Sendable {
    let inner: MemoryManagedAPITokenStore
    let events: Log
    init(_ inner: MemoryManagedAPITokenStore, _ events: Log) {
        self.inner = inner
        self.events = events
    }
    func tokens(for key: TokenKey) async throws -> StoredTokens? { try await inner.tokens(for: key) }
    func setTokens(_ tokens: StoredTokens, for key: TokenKey) async throws {
        try await inner.setTokens(tokens, for: key)
        events.append("saved:\(tokens.accessToken)/\(tokens.refreshToken ?? "")")
    }
    func removeTokens(for key: TokenKey) async throws { try await inner.removeTokens(for: key) }
}
