import Foundation
import GatehouseClientCore
import GatehouseManagedAPI
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `direct` OAuth 2.0 API through `GatehouseManagedAPI` against a real authorization server
/// (Authlib: PKCE S256 required, refresh tokens rotated with reuse detection) and its API.
// One at a time: each test starts its own authorization server (a Python process), and
// two dozen starting at once would starve the rest of the suite on two cores.
@Suite(.serialized) struct ManagedAPIOAuthTests {
    func echo(_ response: ManagedApiFetchResponse) throws -> [String: Any] {
        try #require(response.body as? [String: Any], "\(response.status) \(response.rawBody ?? "")")
    }

    func run(_ kind: TestDatabaseKind, _ body: (ManagedAPIsFixture) async throws -> Void) async throws {
        let f = try await ManagedAPIsFixture.start(kind)
        do {
            try await f.directOAuth()
            try await body(f)
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func consentOnceThenSilentAndNeverWithoutATokenAsksForInteraction(_ kind: TestDatabaseKind) async throws {
        try await run(kind) { f in
            let consents = Counter()
            let store = MemoryManagedAPITokenStore()
            let service = f.service(store: store, consents: consents)
            // `.never` with nothing cached: INTERACTION_REQUIRED, and no UI was shown.
            do {
                _ = try await service.fetch(name: "provider", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never))
                Issue.record("fetched without consent")
            } catch let error as ManagedAPIException {
                #expect(error.errorCode == ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE)
            }
            #expect(consents.count == 0)
            #expect(try await f.provider.stats().authorizeRequests == 0)

            let first = try await service.fetch(name: "provider", relativeUrl: "/me/top/tracks?limit=5")
            #expect(first.ok)
            let body = try echo(first)
            #expect(body["credential"] as? String == "oauth")
            #expect(body["subject"] as? String == "user-1")
            #expect(body["query"] as? String == "limit=5")
            for _ in 0..<3 { #expect(try await service.fetch(name: "provider", relativeUrl: "/me").ok) }
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never)).ok)
            #expect(consents.count == 1)
            let stats = try await f.provider.stats()
            #expect(stats.tokenRequests.authorizationCode == 1)
            #expect(stats.tokenRequests.refreshToken == 0)
            // The authorization request carried PKCE S256, a state and the definition's extra parameter.
            #expect(store.all.count == 1)

            // `.always` drops the cached token and consents again, asking the server to prompt.
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .always)).ok)
            #expect(consents.count == 2)
            let after = try await f.provider.stats()
            #expect(after.tokenRequests.authorizationCode == 2)
            #expect(after.forcedPrompts == 1)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func expiryRefreshesOnceForConcurrentFetchesAndTheRotatedTokenIsKeptFirst(_ kind: TestDatabaseKind) async throws {
        try await run(kind) { f in
            let store = MemoryManagedAPITokenStore()
            let service = f.service(store: store)
            // Thirty seconds is inside the SDK's one-minute leeway: every token is stale at once.
            try await f.provider.setAccessTTL(30)
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me").ok)
            let consented = try #require(store.all.values.first)
            try await f.provider.setTokenDelay(0.3)
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await service.fetch(name: "provider", relativeUrl: "/me").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers == Array(repeating: 200, count: 8))
            // One refresh for eight fetches: with rotation, a second would have been reuse and revoked everything.
            #expect(try await f.provider.stats().tokenRequests.refreshToken == 1)
            let rotated = try #require(store.all.values.first)
            #expect(rotated.refreshToken != nil && rotated.refreshToken != consented.refreshToken)
            #expect(rotated.accessToken != consented.accessToken)
            // The kept refresh token is the live one: the next refresh works, with no new consent.
            try await f.provider.setTokenDelay(0)
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never)).ok)
            let stats = try await f.provider.stats()
            #expect(stats.tokenRequests.refreshToken == 2)
            #expect(stats.tokenRequests.authorizationCode == 1)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func a401ForcesOneRefreshAndOneRetryButA403DoesNot(_ kind: TestDatabaseKind) async throws {
        try await run(kind) { f in
            let service = f.service()
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me").ok)
            // The token looks fresh on the device, but the API refuses it once.
            try await f.provider.failNextAPI(count: 1)
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me").ok)
            #expect(try await f.provider.stats().tokenRequests.refreshToken == 1)
            // Refused twice: the second 401 is the answer, after exactly one more refresh.
            try await f.provider.failNextAPI(count: 2)
            let refused = try await service.fetch(name: "provider", relativeUrl: "/me")
            #expect(refused.status == 401)
            #expect(!refused.ok)
            #expect(try await f.provider.stats().tokenRequests.refreshToken == 2)
            // Too narrow a scope is a 403: returned as it is, with no refresh.
            let forbidden = try await service.fetch(name: "provider", relativeUrl: "/admin/users")
            #expect(forbidden.status == 403)
            #expect(try await f.provider.stats().tokenRequests.refreshToken == 2)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aRevokedGrantFallsToConsentOrToInteractionRequired(_ kind: TestDatabaseKind) async throws {
        try await run(kind) { f in
            let consents = Counter()
            let service = f.service(consents: consents)
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me").ok)
            try await f.provider.revokeAll()
            do {
                _ = try await service.fetch(name: "provider", relativeUrl: "/me", options: ManagedApiFetchOptions(prompt: .never))
                Issue.record("a revoked grant was used")
            } catch let error as ManagedAPIException {
                #expect(error.errorCode == ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE)
            }
            #expect(consents.count == 1)
            #expect(try await service.fetch(name: "provider", relativeUrl: "/me").ok)
            #expect(consents.count == 2)
            // A declined consent is an error, not a response.
            try await f.provider.revokeAll()
            let declining = ManagedAPIService(
                baseURL: f.api, tokenStore: MemoryManagedAPITokenStore(), definitionCache: MemoryDefinitionCache(),
                consent: ClosureConsentPresenter { url, _ in try await f.provider.approveConsent(authorizationURL: url, decision: "deny") },
                redirectURI: URL(string: OAuthTestProvider.customSchemeRedirectURI)!
            ) { [auth = f.base.auth] rejected in try await auth.session.validAccessToken(rejected: rejected) }
            do {
                _ = try await declining.fetch(name: "provider", relativeUrl: "/me")
                Issue.record("a declined consent fetched")
            } catch let error as ManagedAPIException {
                #expect(error.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED)
            }
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func theLoopbackRedirectListenerCatchesTheBrowsersCallback(_ kind: TestDatabaseKind) async throws {
        try await run(kind) { f in
            let provider = f.provider
            // The "browser": approves, then follows the 302 to the loopback listener.
            let loopback = try LoopbackConsentPresenter(timeout: 30) { url in
                let callback = try await provider.approveConsent(authorizationURL: url)
                _ = try await URLSessionTransport().send(URLRequest(url: callback))
            }
            let service = ManagedAPIService(
                baseURL: f.api, tokenStore: MemoryManagedAPITokenStore(), definitionCache: MemoryDefinitionCache(), consent: loopback,
                redirectURI: loopback.redirectURI
            ) { [auth = f.base.auth] rejected in try await auth.session.validAccessToken(rejected: rejected) }
            let answer = try await service.fetch(name: "provider", relativeUrl: "/me")
            #expect(answer.ok)
            #expect(try echo(answer)["subject"] as? String == "user-1")
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func definitionsAreReadOfflineFromTheLastSyncWithoutAuthSettings(_ kind: TestDatabaseKind) async throws {
        let f = try await ManagedAPIsFixture.start(kind)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cacheFile = folder.appendingPathComponent("definitions.json")
        do {
            try await f.directOAuth()
            try await f.proxied("crm", path: "/static/bearer", authType: "BEARER_TOKEN", bearerToken: OAuthTestProvider.staticBearer)
            let service = f.service(cache: FileDefinitionCache(url: cacheFile))
            let all = try await service.managedAPIs()
            // The development tenant's own `server-health` is there too.
            #expect(all.map { $0["name"] } == ["crm", "provider", "server-health"])
            #expect(all[1] == [
                "name": "provider", "displayName": "Provider", "baseUrl": f.upstream + "/api", "authType": "OAUTH2", "mode": "direct",
                "category": "music",
            ])
            #expect(try await service.managedAPI(name: "nope") == nil)
            // The server's answer carries no auth setting, literally.
            let raw = try JSONSerialization.jsonObject(with: try await f.base.raw("GET", "managed-apis/v1/crm").data) as? NSDictionary
            #expect(raw == [
                "name": "crm", "displayName": "Crm", "baseUrl": f.upstream + "/static/bearer", "authType": "BEARER_TOKEN", "mode": "proxied",
                "metadata": [:] as [String: String],
            ] as NSDictionary)
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
        // The server is gone: a new service over the same file still answers from it.
        let offline = ManagedAPIService(
            baseURL: f.api, tokenStore: MemoryManagedAPITokenStore(), definitionCache: FileDefinitionCache(url: cacheFile), consent: NoConsentPresenter(),
            redirectURI: URL(string: OAuthTestProvider.customSchemeRedirectURI)!
        ) { _ in "expired" }
        #expect(try await offline.managedAPIs().count == 3)
        #expect(try await offline.managedAPI(name: "provider")?["displayName"] == "Provider")
        await #expect(throws: ManagedAPIException.self) { try await offline.fetch(name: "crm", relativeUrl: "/x") }
    }
}
