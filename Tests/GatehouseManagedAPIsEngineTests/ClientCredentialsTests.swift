import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseManagedAPIsEngine

@Suite struct ClientCredentialsTests {
    func token(_ h: ManagedAPIsHarness, retiring: String? = nil) async throws -> String {
        let plan = try await h.engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: [], retiring: retiring)
        return try #require(plan.serverToken)
    }

    @Test(arguments: TestDatabaseKind.available)
    func theServerFetchesOneTokenAndKeepsItSealedUntilItNearsExpiry(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials(scopes: ["read", "write"])))
        #expect(try await token(h) == "cc-token-1")
        #expect(try await token(h) == "cc-token-1")
        #expect(h.tokens.count == 1)
        let request = try #require(h.tokens.requests.first)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Basic " + Data("server-app:cc-secret".utf8).base64EncodedString())
        #expect(String(decoding: request.httpBody ?? Data(), as: UTF8.self) == "grant_type=client_credentials&scope=read%20write")
        #expect(try await !h.storedText().contains("cc-token-1"))
        #expect(try await !h.storedText().contains("cc-secret"))

        // Inside the last minute of its hour it is renewed.
        h.clock.advance(by: 3600 - 59)
        #expect(try await token(h) == "cc-token-2")
        #expect(h.tokens.count == 2)
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentCallsShareOneFetchAndARefusedTokenIsRetiredOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials()))
        h.tokens.delay = 200_000_000
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<12 { group.addTask { try await token(h) } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["cc-token-1"])
        #expect(h.tokens.count == 1)
        // Twelve calls that each saw a 401 with the same token retire it once.
        let renewed = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<12 { group.addTask { try await token(h, retiring: "cc-token-1") } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(renewed) == ["cc-token-2"])
        #expect(h.tokens.count == 2)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aRefusingOrBrokenTokenEndpointIsTheCredentialBeingUnavailable(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        var auth = ManagedAPIsHarness.clientCredentials()
        if case .oauth2(var settings) = auth { settings.tokenEndpointAuth = .clientSecretPost; auth = .oauth2(settings) }
        try await h.save(ManagedAPIsHarness.definition(auth: auth))
        h.tokens.answer(status: 401, #"{"error":"invalid_client"}"#)
        await #expect(throws: ManagedAPIError(.credentialUnavailable, .credential(.tokenEndpointRefused(definition: "crm", error: "invalid_client")))) { try await token(h) }
        h.tokens.answer(status: 200, #"{"token_type":"Bearer"}"#)
        await #expect(throws: ManagedAPIError.self) { try await token(h) }
        // The lease was let go each time: the next call fetches at once.
        #expect(try await token(h) == "cc-token-3")
        let body = String(decoding: h.tokens.requests.last?.httpBody ?? Data(), as: UTF8.self)
        #expect(body == "grant_type=client_credentials&scope=read&client_id=server-app&client_secret=cc-secret")
        #expect(h.tokens.requests.last?.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test(arguments: TestDatabaseKind.available)
    func lifetimesAreReadLenientlyAndBoundedAndBadTokensRefused(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials()))
        // A numeric string is a lifetime; past a year it is unknown (kept until refused), never a trap.
        h.tokens.answer(status: 200, #"{"access_token":"t-string","expires_in":"90"}"#)
        #expect(try await token(h) == "t-string")
        h.clock.advance(by: 46)  // a 90 s token is renewed at half its life
        h.tokens.answer(status: 200, #"{"access_token":"t-huge","expires_in":10000000000000}"#)
        #expect(try await token(h) == "t-huge")
        h.clock.advance(by: 86_400 * 400)
        #expect(try await token(h) == "t-huge")
        // A token that could not go into a header as it is is no token.
        h.tokens.answer(status: 200, #"{"access_token":"bad\r\nX-Injected: 1","expires_in":60}"#)
        await #expect(throws: ManagedAPIError.self) { try await token(h, retiring: "t-huge") }
        #expect(h.tokens.count == 3)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aChangedClientDoesNotReuseTheOldToken(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials()))
        #expect(try await token(h) == "cc-token-1")
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials(secret: nil, scopes: ["read", "admin"])))
        #expect(try await token(h) == "cc-token-2")
        let body = String(decoding: h.tokens.requests.last?.httpBody ?? Data(), as: UTF8.self)
        #expect(body.contains("scope=read%20admin"))
    }

    @Test(arguments: TestDatabaseKind.available)
    func twoNodesOnOneDatabaseFetchOneToken(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials()))
        // A second node: its own engine (and node id, and single flight) over the same database.
        let environment = Environment.test(database: h.store.database, clock: h.clock, http: h.tokens)
        _ = environment.ids.next()
        let other = ManagedAPIsEngine(environment: environment, secrets: try SecretBox(key: ManagedAPIsHarness.key), destinations: h.destinations)
        #expect(other.nodeID != h.engine.nodeID)
        h.tokens.delay = 300_000_000
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                let engine = index % 2 == 0 ? h.engine : other
                group.addTask { try #require(try await engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: []).serverToken) }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["cc-token-1"])
        #expect(h.tokens.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func anotherNodesLeaseIsWaitedOutNotDoubled(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials()))
        // A node that died holding the lease: it lapses after 20 s of the manual clock.
        let now = h.clock.now
        try await h.store.database.write { [h] db in
            try db.execute(
                "INSERT INTO managed_api_tokens (tenant_id, name, fingerprint, lease_owner, lease_until, updated_at) VALUES (?, 'crm', 'x', 'dead-node', ?, ?)",
                h.tenantID, now.addingTimeInterval(20), now)
        }
        let waiting = Task { try await token(h) }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(h.tokens.count == 0)
        h.clock.advance(by: 21)
        #expect(try await waiting.value == "cc-token-1")
        #expect(h.tokens.count == 1)
    }
}
