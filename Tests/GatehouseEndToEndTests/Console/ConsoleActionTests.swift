import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// What an admin does in the console takes effect in the API, is audited in the same
/// transaction, and shows no secret but once.
@Suite struct ConsoleActionTests {
    @Test(arguments: TestDatabaseKind.available)
    func aNewKeyIsShownOnceAndWorks(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.admin)
            let tenantID = f.live.credentials.tenantId
            let csrf = try #require(try await visitor.get("/tenants/\(tenantID)").csrf)
            let shown = try await visitor.post("/tenants/\(tenantID)/keys", ["label": "console key", "platform": "IOS", "application": ""], csrf: csrf)
            #expect(shown.status == 200 && shown.header("Cache-Control") == "no-store")
            let secret = try #require(shown.body.range(of: "ghk_").map { String(shown.body[$0.lowerBound...].prefix { $0 != "<" }) })
            let key = try #require(try await f.live.app.directory.authenticate(apiKey: secret))
            #expect(key.label == "console key" && key.platform == "IOS")
            for path in ["/tenants/\(tenantID)", "/audit", "/tenants", "/"] {
                #expect(!(try await visitor.get(path).body.contains(secret)), "\(path)")
            }
            #expect(try await f.console.auditLog().contains { $0.entry.action == "key.create" && $0.entry.target == tenantID })
            let revoked = try await visitor.post("/tenants/\(tenantID)/keys/\(key.id)/revoke", [:], csrf: csrf)
            #expect(revoked.status == 303)
            // Revoked again: nothing changed, so nothing is recorded.
            #expect(try await visitor.post("/tenants/\(tenantID)/keys/\(key.id)/revoke", [:], csrf: csrf).status == 303)
            #expect(try await f.console.auditLog().filter { $0.entry.action == "key.revoke" }.count == 1)
            #expect(try await f.live.app.directory.authenticate(apiKey: secret) == nil)
            #expect(try await visitor.post("/tenants/\(tenantID)/keys/no-such-key/revoke", [:], csrf: csrf).status == 404)
            #expect(try await visitor.post("/tenants/no-such-tenant/keys", ["label": "x"], csrf: csrf).status == 404)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aPinAndALiftTakeEffectInTheAPIAndAreAuditedWithTheirChange(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.admin)
            let tenantID = f.live.credentials.tenantId
            let page = try await visitor.get("/prefix-blocks?tenant=\(tenantID)")
            #expect(page.status == 200 && page.body.contains("No prefix is blocked."))
            let csrf = try #require(page.csrf)
            let pinned = try await visitor.post("/prefix-blocks/pin", ["tenant": tenantID, "prefix": "447400", "application": ""], csrf: csrf)
            #expect(pinned.status == 303 && pinned.location == "/prefix-blocks?tenant=\(tenantID)&done=block-pinned")
            // Pinned again: the pin stands as it was, and no second row says otherwise.
            #expect(try await visitor.post("/prefix-blocks/pin", ["tenant": tenantID, "prefix": "447400", "application": ""], csrf: csrf).status == 303)
            let blocks = try await f.live.app.verification.prefixBlocks(tenantID: tenantID)
            #expect(blocks.count == 1 && blocks[0].prefix == "447400" && blocks[0].active && blocks[0].applicationId == nil)
            #expect(try await visitor.get("/prefix-blocks?tenant=\(tenantID)&done=block-pinned").body.contains("+447400"))
            // A refused change writes no audit row: the row rides the change's own transaction.
            let refused = try await visitor.post("/prefix-blocks/pin", ["tenant": tenantID, "prefix": "not digits"], csrf: csrf)
            #expect(refused.status == 400)
            let missing = try await visitor.post("/prefix-blocks/lift", ["tenant": tenantID, "prefix": "33"], csrf: csrf)
            #expect(missing.status == 404)
            let lifted = try await visitor.post("/prefix-blocks/lift", ["tenant": tenantID, "prefix": "447400", "application": ""], csrf: csrf)
            #expect(lifted.status == 303)
            #expect(try await f.live.app.verification.prefixBlocks(tenantID: tenantID).allSatisfy { !$0.active })
            let audit = try await f.console.auditLog().filter { $0.entry.action.hasPrefix("prefix_block.") }
            #expect(audit.map(\.entry.action) == ["prefix_block.lift", "prefix_block.pin"])
            #expect(audit.allSatisfy { $0.entry.actor == f.admin.id && $0.entry.target == "447400" && $0.entry.clientAddress == "127.0.0.1" })
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func hostileValuesRenderEscapedAndNoSecretIsOnAnyPage(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let hostile = "<script>alert('x')</script>\"><img src=x onerror=alert(1)>"
            // Names refuse control and bidirectional characters; a record's detail keeps what it was given.
            try await f.console.record(AuditEntry(actor: nil, action: "seeded", detail: hostile + "\u{202E}evil\u{7}\u{200F}"))
            let tenant = try await f.live.app.directory.createTenant(name: hostile)
            _ = try await f.live.app.directory.createApplication(tenantID: tenant.id, name: hostile)
            let issued = try await f.live.app.directory.issueKey(tenantID: tenant.id, label: hostile)
            let visitor = try await f.signedIn(f.admin)
            _ = try await visitor.post("/tenants", ["name": hostile], csrf: try await visitor.get("/tenants").csrf)
            let secrets = [issued.secret, f.live.credentials.adminToken, f.live.credentials.apiKey, f.admin.password, f.viewer.password,
                           String(f.admin.totpURI.split(separator: "=")[1].prefix(16))]
            for path in ["/", "/tenants", "/tenants/\(tenant.id)", "/prefix-blocks?tenant=\(tenant.id)", "/operators", "/audit", "/?tenant=\(tenant.id)&days=7"] {
                let page = try await visitor.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(!page.body.contains("<script>alert") && !page.body.contains("<img src=x"), "\(path)")
                #expect(!page.body.contains("\u{202E}") && !page.body.contains("\u{7}"), "\(path)")
                for secret in secrets { #expect(!page.body.contains(secret), "\(path)") }
            }
            let tenants = try await visitor.get("/tenants").body
            #expect(tenants.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
            #expect(try await visitor.get("/audit").body.contains("onerror=alert(1)&gt;[U+202E]evil\u{2407}[U+200F]"))
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func theOverviewDrawsTheHourlyCountsAsCharts(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let harness = f.live
            // Real traffic: codes sent through the DIDWW dialect land in the hourly counts.
            _ = harness
            let visitor = try await f.signedIn(f.viewer)
            let page = try await visitor.get("/?days=2")
            #expect(page.status == 200)
            #expect(page.body.components(separatedBy: "<svg class=\"chart\"").count - 1 == 3)
            #expect(page.body.contains("Codes per hour") && page.body.contains("Conversion by country"))
            #expect(try await visitor.get("/?days=9999999999999999999999&tenant=%3Cx%3E").status == 200)
        }
    }
}
