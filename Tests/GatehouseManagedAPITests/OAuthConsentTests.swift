import Foundation
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider: its token endpoint answers each form through `token`, its API through `api`.
func provider(
    api: @escaping @Sendable (URLRequest) async throws -> ScriptedTransport.Reply = { _ in .init(status: 200, body: "{}") },
    token: @escaping @Sendable ([String: String]) async throws -> ScriptedTransport.Reply
) -> ScriptedTransport {
    ScriptedTransport { request in
        switch request.url?.host {
        case "accounts.spotify.test": return try await token(form(request))
        case "api.spotify.test": return try await api(request)
        default: return .init(status: 599)
        }
    }
}

extension ScriptedTransport {
    var tokenRequests: [URLRequest] { requests(to: "accounts.spotify.test") }
    var apiRequests: [URLRequest] { requests(to: "api.spotify.test") }
}

/// Consent: the authorization request, the callback checks and the code exchange (RFC 6749 §4.1, RFC 7636, L7, L8).
@Suite struct OAuthConsentTests {
    @Test func consentBuildsTheAuthorizeURLAndExchangesTheCodeWithTheVerifier() async throws {
        let seen = Log()
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1", refresh: "r1", scope: "user-top-read")) }
        let store = MemoryManagedAPITokenStore()
        let service = makeService(transport, store: store, consent: approving(code: "c+1", seen: seen))

        let answer = try await service.fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.ok)
        let seenURL = try #require(seen.all.first)
        let authorize = try #require(URL(string: seenURL))
        let fields = query(authorize)
        #expect(authorize.host == "accounts.spotify.test" && authorize.path == "/authorize")
        #expect(fields["response_type"] == "code" && fields["client_id"] == "cid" && fields["redirect_uri"] == "com.example.app:/oauth")
        #expect(fields["scope"] == "user-top-read user-read-email")
        #expect(fields["code_challenge_method"] == "S256" && fields["access_type"] == "offline")
        #expect(fields["prompt"] == nil)
        let state = try #require(fields["state"])
        #expect(state != "evil" && state.count == 43)

        let exchange = form(try #require(transport.tokenRequests.first))
        #expect(exchange["grant_type"] == "authorization_code" && exchange["code"] == "c+1" && exchange["client_id"] == "cid")
        #expect(exchange["redirect_uri"] == "com.example.app:/oauth")
        let verifier = try #require(exchange["code_verifier"])
        #expect(PKCE.challenge(for: verifier) == fields["code_challenge"])
        #expect(verifier != state)
        #expect(transport.tokenRequests.first?.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(bearer(try #require(transport.apiRequests.first)) == "a1")
        let stored = try #require(store.all[Fixture.spotifyKey])
        #expect(stored.refreshToken == "r1" && stored.expiresAt == start.addingTimeInterval(3600) && stored.scope == "user-top-read")
    }

    @Test func neverWithoutTokensIsInteractionRequiredAndShowsNothing() async {
        let seen = Log()
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1")) }
        let service = makeService(transport, consent: refusing(seen))
        let error = await exception {
            try await service.fetch(name: "spotify", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never))
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE)
        #expect(seen.all.isEmpty && transport.requests.isEmpty)
    }

    @Test func alwaysDropsTheCachedTokenAndAsksForALogin() async throws {
        let seen = Log()
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a2", refresh: "r2")) }
        let store = MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: "a1", refreshToken: "r1")])
        let service = makeService(transport, store: store, consent: approving(seen: seen))

        _ = try await service.fetch(name: "spotify", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .always))
        let fields = query(URL(string: try #require(seen.all.first)))
        #expect(fields["prompt"] == "login")
        #expect(transport.tokenRequests.map { form($0)["grant_type"] } == ["authorization_code"])
        #expect(transport.apiRequests.map(bearer) == ["a2"])
        #expect(store.all[Fixture.spotifyKey]?.refreshToken == "r2")
    }

    @Test func alwaysDeletesTheTokensEvenWhenConsentIsCancelled() async {
        let store = MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: "a1", refreshToken: "r1")])
        let cancel = ClosureConsentPresenter { _, _ in throw ManagedAPIException(errorCode: ManagedAPIErrorCodes.OAUTH_CANCELLED, message: "closed") }
        let service = makeService(provider { _ in .init(status: 500) }, store: store, consent: cancel)
        let error = await exception {
            try await service.fetch(name: "spotify", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .always))
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_CANCELLED)
        #expect(store.all.isEmpty)
    }

    @Test func aStateMismatchIsRefusedAndNoCodeIsExchanged() async {
        let forged = ClosureConsentPresenter { _, redirectURI in URL(string: "\(redirectURI.absoluteString)?code=c1&state=forged")! }
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1")) }
        let service = makeService(transport, consent: forged)
        let error = await exception { try await service.fetch(name: "spotify", relativeUrl: "/me") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED)
        #expect(transport.requests.isEmpty)
    }

    @Test func aReplayedCallbackIsRefused() async throws {
        let first = Log()
        let replay = ClosureConsentPresenter { url, redirectURI in
            if let old = first.all.first { return URL(string: old)! }
            let callback = "\(redirectURI.absoluteString)?code=c1&state=\(query(url)["state"] ?? "")"
            first.append(callback)
            return URL(string: callback)!
        }
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1")) }
        let service = makeService(transport, consent: replay)
        _ = try await service.fetch(name: "spotify", relativeUrl: "/me")
        let error = await exception {
            try await service.fetch(name: "spotify", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .always))
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED)
        #expect(transport.tokenRequests.count == 1)
    }

    @Test func anErrorCallbackIsOAuthFailed() async {
        let deny = ClosureConsentPresenter { url, redirectURI in
            URL(string: "\(redirectURI.absoluteString)?error=access_denied&state=\(query(url)["state"] ?? "")")!
        }
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1")) }
        let error = await exception { try await makeService(transport, consent: deny).fetch(name: "spotify", relativeUrl: "/me") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED)
        #expect(error?.message.contains("access_denied") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func aCallbackToAnotherURIIsRefused() async {
        let elsewhere = ClosureConsentPresenter { url, _ in URL(string: "https://evil.test/oauth?code=c1&state=\(query(url)["state"] ?? "")")! }
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1")) }
        let error = await exception { try await makeService(transport, consent: elsewhere).fetch(name: "spotify", relativeUrl: "/me") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED)
        #expect(transport.requests.isEmpty)
    }

    @Test func cancellingTheTaskIsOAuthCancelled() async {
        let hang = ClosureConsentPresenter { _, _ in
            try await Task.sleep(for: .seconds(60))
            return redirect
        }
        let service = makeService(provider { _ in .init(status: 500) }, consent: hang)
        let task = Task { try await service.fetch(name: "spotify", relativeUrl: "/me") }
        task.cancel()
        let error = await exception { try await task.value }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_CANCELLED)
    }

    @Test func aChangedClientDoesNotReuseTheOldToken() async throws {
        var changed = Fixture.spotify
        changed.oauth2?.clientId = "other"
        let store = MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: "old")])
        let transport = provider { _ in .init(status: 200, body: tokenJSON("new")) }
        let service = makeService(transport, store: store, cache: MemoryDefinitionCache(CachedDefinitions(etag: nil, definitions: [changed])))
        _ = try await service.fetch(name: "spotify", relativeUrl: "/me")
        #expect(transport.apiRequests.map(bearer) == ["new"])
        #expect(form(try #require(transport.tokenRequests.first))["client_id"] == "other")
    }

    @Test func concurrentFetchesWithoutTokensShareOneConsent() async throws {
        let seen = Log()
        let slow = ClosureConsentPresenter { url, redirectURI in
            seen.append(url.absoluteString)
            try await Task.sleep(for: .milliseconds(200))
            return URL(string: "\(redirectURI.absoluteString)?code=c&state=\(query(url)["state"] ?? "")")!
        }
        let transport = provider { _ in .init(status: 200, body: tokenJSON("a1")) }
        let service = makeService(transport, consent: slow)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { _ = try await service.fetch(name: "spotify", relativeUrl: "/me") } }
            try await group.waitForAll()
        }
        #expect(seen.all.count == 1 && transport.tokenRequests.count == 1 && transport.apiRequests.count == 5)
    }
}
