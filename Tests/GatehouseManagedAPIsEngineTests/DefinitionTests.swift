import Foundation
import GatehouseTesting
import Testing
@testable import GatehouseManagedAPIsEngine

@Suite struct DefinitionTests {
    typealias Definition = ManagedAPIDefinition

    @Test(arguments: TestDatabaseKind.available)
    func aDefinitionThatCannotWorkIsRefusedWithTheReason(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        let publicClient = Definition.Auth.oauth2(.init(
            grant: .authorizationCode, authorizationEndpoint: URL(string: "https://auth.example.com/authorize")!,
            tokenEndpoint: URL(string: "https://auth.example.com/token")!, clientID: "device-app"))
        var secretClient = publicClient
        if case .oauth2(var settings) = secretClient { settings.clientSecret = "leaks"; secretClient = .oauth2(settings) }
        let cases: [(Definition, ManagedAPIError.DefinitionRule)] = [
            (ManagedAPIsHarness.definition("Bad Name"), .name),
            (ManagedAPIsHarness.definition("-lead"), .name),
            (ManagedAPIsHarness.definition(base: "http://api.example.com"), .url(field: "baseUrl", .httpsOnly)),
            (ManagedAPIsHarness.definition(base: "https://u:p@api.example.com"), .url(field: "baseUrl", .noUserInfo)),
            (ManagedAPIsHarness.definition(base: "https://api.example.com/v1?k=1"), .url(field: "baseUrl", .noQueryOrFragment)),
            (ManagedAPIsHarness.definition(auth: .basic(username: "u", password: "p"), mode: .direct), .directShipsSecret(authType: "BASIC")),
            (ManagedAPIsHarness.definition(auth: .apiKey(placement: .header, name: "X-Key", value: "k"), mode: .direct), .directShipsSecret(authType: "API_KEY")),
            (ManagedAPIsHarness.definition(auth: .bearerToken(token: "t"), mode: .direct), .directHoldsBearerToken),
            (ManagedAPIsHarness.definition(auth: secretClient, mode: .direct), .directClientSecret),
            (ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials(), mode: .direct), .directClientCredentials),
            (ManagedAPIsHarness.definition(auth: publicClient, mode: .proxied), .proxiedAuthorizationCode),
            (ManagedAPIsHarness.definition(auth: ManagedAPIsHarness.clientCredentials(secret: nil)), .proxiedClientSecretMissing),
            (ManagedAPIsHarness.definition(auth: .basic(username: "u", password: nil)), .proxiedSecretMissing(authType: "BASIC")),
            (ManagedAPIsHarness.definition(auth: .bearerToken(token: "line\r\nX-Injected: 1")), .secret(maxBytes: 4096)),
            (ManagedAPIsHarness.definition(auth: .apiKey(placement: .header, name: "Bad Header", value: "k")), .apiKeyName),
            (ManagedAPIsHarness.definition(auth: .apiKey(placement: .header, name: "Host", value: "k")), .apiKeyHeader("Host")),
            (ManagedAPIsHarness.definition(auth: .basic(username: "a:b", password: "p")), .basicUsername),
            (ManagedAPIsHarness.definition(base: "https://api.example.com/v1%0D%0AX-Injected:%201"), .url(field: "baseUrl", .noControlCharacters)),
        ]
        for (definition, expected) in cases {
            do {
                try await h.save(definition)
                Issue.record("saved \(definition.name) although: \(expected)")
            } catch let error as ManagedAPIError {
                #expect(error.code == .definitionInvalid)
                #expect(error.reason == .definition(expected), "\(error)")
            }
        }
        var leakyParams = publicClient
        if case .oauth2(var settings) = leakyParams { settings.authorizationParams = ["client_secret": "s"]; leakyParams = .oauth2(settings) }
        await #expect(throws: ManagedAPIError(.definitionInvalid, .definition(.authorizationParamSecret("client_secret")))) {
            try await h.save(ManagedAPIsHarness.definition("leaky", auth: leakyParams, mode: .direct))
        }
        for key in ["Redirect_Uri", "redirect_uri ", "CLIENT_SECRET"] {
            var variant = publicClient
            if case .oauth2(var settings) = variant { settings.authorizationParams = [key: "x"]; variant = .oauth2(settings) }
            await #expect(throws: ManagedAPIError.self, "\(key)") { try await h.save(ManagedAPIsHarness.definition("variant", auth: variant, mode: .direct)) }
        }
        var reserved = ManagedAPIsHarness.definition()
        reserved.metadata = ["baseUrl": "https://evil.example"]
        await #expect(throws: ManagedAPIError.self) { try await h.save(reserved) }
        #expect(try await h.engine.definitions(tenantID: h.tenantID).isEmpty)
        // A public client with PKCE and a device-supplied bearer token are fine as direct.
        try await h.save(ManagedAPIsHarness.definition("spotify", auth: publicClient, mode: .direct))
        try await h.save(ManagedAPIsHarness.definition("github", auth: .bearerToken(token: nil), mode: .direct))
        #expect(try await h.engine.definitions(tenantID: h.tenantID).map(\.name) == ["github", "spotify"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func secretsAreSealedNeverReadBackAndKeptWhenLeftOut(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        let saved = try await h.save(ManagedAPIsHarness.definition(auth: .apiKey(placement: .query, name: "api_key", value: "sk-live-0123456789")))
        #expect(saved.hasSecret)
        #expect(saved.auth.secret == nil)
        let read = try await h.engine.definition(tenantID: h.tenantID, name: "crm")
        #expect(read.auth == .apiKey(placement: .query, name: "api_key", value: nil))
        #expect(read.hasSecret)
        #expect(try await !h.storedText().contains("sk-live-0123456789"))

        // A save without the secret keeps it; the proxy still adds it.
        var renamed = ManagedAPIsHarness.definition(auth: .apiKey(placement: .query, name: "api_key", value: nil))
        renamed.displayName = "CRM v2"
        #expect(try await h.save(renamed).hasSecret)
        let plan = try await h.engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/contacts", query: [("api_key", "caller's"), ("q", "a b")])
        #expect(plan.url.absoluteString == "https://api.example.com/v2/contacts?q=a%20b&api_key=sk-live-0123456789")

        // Nor does a new destination: moving the key elsewhere, or into another parameter, needs it again.
        for moved in [
            ManagedAPIsHarness.definition(auth: .apiKey(placement: .query, name: "api_key", value: nil), base: "https://collector.example.net/v2"),
            ManagedAPIsHarness.definition(auth: .apiKey(placement: .query, name: "leak", value: nil)),
            ManagedAPIsHarness.definition(auth: .apiKey(placement: .header, name: "api_key", value: nil)),
            ManagedAPIsHarness.definition(auth: .apiKey(placement: .query, name: "api_key", value: nil), development: true),
        ] {
            await #expect(throws: ManagedAPIError(.definitionInvalid, .definition(.proxiedSecretMissing(authType: "API_KEY")))) { try await h.save(moved) }
        }
        // Another auth type does not inherit the secret.
        await #expect(throws: ManagedAPIError.self) { try await h.save(ManagedAPIsHarness.definition(auth: .bearerToken(token: nil))) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func withoutAKeyNoSecretIsSaved(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind, secrets: false)
        defer { h.close() }
        await #expect(throws: ManagedAPIError(.secretKeyMissing, .secretKeyMissing(saving: true))) {
            try await h.save(ManagedAPIsHarness.definition(auth: .bearerToken(token: "t")))
        }
        try await h.save(ManagedAPIsHarness.definition(auth: .none))
    }

    @Test(arguments: TestDatabaseKind.available)
    func tenantsNeverMeet(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition(auth: .bearerToken(token: "tenant-one-token")))
        await #expect(throws: ManagedAPIError(.notFound, .noSuchAPI("crm"))) {
            try await h.engine.definition(tenantID: h.otherTenantID, name: "crm")
        }
        await #expect(throws: ManagedAPIError(.notFound, .noSuchAPI("crm"))) {
            try await h.engine.plan(tenantID: h.otherTenantID, name: "crm", rawPath: "/", query: [])
        }
        await #expect(throws: ManagedAPIError(.notFound, .noSuchAPI("crm"))) { try await h.engine.deleteDefinition(tenantID: h.otherTenantID, name: "crm") }
        // A sealed secret copied into another tenant's row does not open there.
        try await h.save(ManagedAPIsHarness.definition(auth: .bearerToken(token: "tenant-two-token")), tenant: h.otherTenantID)
        try await h.store.database.write { [h] db in
            let sealed: String = try db.queryOne("SELECT sealed_secret FROM managed_api_definitions WHERE tenant_id = ?", h.tenantID)!.get("sealed_secret")
            try db.execute("UPDATE managed_api_definitions SET sealed_secret = ? WHERE tenant_id = ?", sealed, h.otherTenantID)
        }
        await #expect(throws: ManagedAPIError.self) { try await h.engine.plan(tenantID: h.otherTenantID, name: "crm", rawPath: "/", query: []) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func eachCredentialTypeIsPlanned(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition("basic", auth: .basic(username: "proxyuser", password: "proxy-pass")))
        try await h.save(ManagedAPIsHarness.definition("bearer", auth: .bearerToken(token: "static-bearer")))
        try await h.save(ManagedAPIsHarness.definition("header", auth: .apiKey(placement: .header, name: "X-API-Key", value: "k-123")))
        try await h.save(ManagedAPIsHarness.definition("open"))
        try await h.save(ManagedAPIsHarness.definition("direct", mode: .direct))
        func headers(_ name: String) async throws -> [String] {
            try await h.engine.plan(tenantID: h.tenantID, name: name, rawPath: "/x", query: []).credentialHeaders.map { "\($0.name): \($0.value)" }
        }
        #expect(try await headers("basic") == ["Authorization: Basic cHJveHl1c2VyOnByb3h5LXBhc3M="])
        #expect(try await headers("bearer") == ["Authorization: Bearer static-bearer"])
        #expect(try await headers("header") == ["X-API-Key: k-123"])
        #expect(try await headers("open") == [])
        await #expect(throws: ManagedAPIError.self) { try await headers("direct") }
        #expect(h.destinations.vetted.allSatisfy { !$0.1 })
        h.destinations.refuse = true
        await #expect(throws: ManagedAPIError(.destinationRefused, .destination(.notPublic(host: "test")))) { try await headers("open") }
    }
}
