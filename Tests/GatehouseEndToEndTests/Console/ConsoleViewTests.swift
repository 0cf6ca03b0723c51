import Foundation
import GatehouseAccountsEngine
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseManagedAPIsEngine
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Every view shows what the real APIs put in the engines, with numbers masked until an admin
/// reveals one, secrets never, and each action reaching the engine it names.
@Suite struct ConsoleViewTests {
    @Test(arguments: TestDatabaseKind.available)
    func everyViewShowsItsSeededData(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let tenantID = f.live.credentials.tenantId
            // A user signs in through the Datacove API: a verification, the hourly counts, an account and its device.
            let pair = try await DatacoveClient(f.live).signIn(f.live, phone: "+1 416 555 0142", device: "Console probe phone")
            let account = try await f.live.app.accounts.sessions.authenticate(accessToken: try #require(pair["accessToken"] as? String))
            // A passkey whose counter once went back: flagged on the account's page.
            let origin = "https://id.example"
            _ = try await f.live.app.accounts.setPasskeyConfig(
                tenantID: tenantID, PasskeyConfig(rpID: "id.example", rpName: "Example", origins: [origin], iosAppIDs: [], enabled: true))
            let options = try await f.live.app.accounts.passkeyCreationOptions(account)
            var counting = SoftwareAuthenticator.Answer()
            counting.signCount = 5
            let authenticator = SoftwareAuthenticator()
            let (credential, response) = try authenticator.register(
                algorithm: .es256, rpID: "id.example", origin: origin, challenge: options.challenge, userHandle: options.userID, answer: counting)
            _ = try await f.live.app.accounts.registerPasskey(account, response: response, name: "Probe key")
            var stale = credential
            stale.signCount = 3
            let request = try await f.live.app.accounts.passkeyRequestOptions(tenantID: tenantID, identifier: nil)
            await #expect(throws: PasskeyError.counterRegressed) {
                try await f.live.app.accounts.signInWithPasskey(
                    tenantID: tenantID, response: try authenticator.assert(stale, origin: origin, challenge: request.challenge), device: DeviceInfo())
            }
            let secret = "mapi-secret-value-123"
            _ = try await f.live.app.managedAPIs.saveDefinition(tenantID: tenantID, ManagedAPIDefinition(
                name: "console-probe", displayName: "Console probe", baseURL: URL(string: "https://api.example.com/v1")!,
                auth: .bearerToken(token: secret), mode: .proxied))
            let visitor = try await f.signedIn(f.admin)
            let masked = "+1416••••142"
            let expectations: [(String, [String])] = [
                ("/?tenant=\(tenantID)", ["Codes sent", "Active subscriptions", "Workflow outcomes", "<td>CA</td>"]),
                ("/verifications?tenant=\(tenantID)", [masked, "sms", "verified"]),
                ("/verifications?tenant=\(tenantID)&status=pending", ["No verifications match"]),
                ("/accounts?tenant=\(tenantID)", [masked, account.accountId]),
                ("/accounts?tenant=\(tenantID)&q=%2B1%20416%20555%200142", [account.accountId]),
            // Whole values only: a prefix would spell a masked number out digit by digit.
            ("/accounts?tenant=\(tenantID)&q=%2B1416555", ["No account matches."]),
                ("/accounts/\(tenantID)/\(account.accountId)", ["Console probe phone", masked, "Sign out everywhere", "Probe key", "<td><strong>"]),
                ("/purchases/\(tenantID)/\(account.accountId)", ["No subscription.", "none"]),
                ("/runs?tenant=\(tenantID)", ["wf-url-001", "Website check", "No runs."]),
                ("/managed-apis?tenant=\(tenantID)", ["console-probe", "stored (never shown)", "https://api.example.com/v1"]),
                ("/otp-applications?tenant=\(tenantID)", ["The request callback has not failed.", "Test numbers"]),
                ("/possession?tenant=\(tenantID)", ["No possession checks."]),
            ]
            for (path, texts) in expectations {
                let page = try await visitor.get(path)
                #expect(page.status == 200, "\(path)")
                for text in texts { #expect(page.body.contains(text), "\(path): \(text)") }
                #expect(!page.body.contains("14165550142") && !page.body.contains(secret), "\(path)")
            }
            // An admin reveals the number: shown on that answer only, and audited.
            let log = try await visitor.get("/verifications?tenant=\(tenantID)")
            let revealPath = try #require(log.body.range(of: "/verifications/[^/\"]+/reveal", options: .regularExpression).map { String(log.body[$0]) })
            let revealed = try await visitor.post(revealPath, [:], csrf: log.csrf)
            #expect(revealed.status == 200 && revealed.body.contains("+14165550142"))
            #expect(try await f.console.auditLog().contains { $0.entry.action == "number.reveal" && $0.entry.actor == f.admin.id })
            // A viewer sees no reveal and cannot reveal.
            let viewer = try await f.signedIn(f.viewer)
            let viewerLog = try await viewer.get("/verifications?tenant=\(tenantID)")
            #expect(!viewerLog.body.contains("/reveal"))
            #expect(try await viewer.post(revealPath, [:], csrf: viewerLog.csrf).status == 403)
            // Signing the device out ends the session the API holds.
            let accountPage = try await visitor.get("/accounts/\(tenantID)/\(account.accountId)")
            let signedOut = try await visitor.post("/accounts/\(tenantID)/\(account.accountId)/sign-out", ["session": account.sessionId], csrf: accountPage.csrf)
            #expect(signedOut.status == 303)
            #expect(try await f.live.app.accounts.sessions.sessions(accountID: account.accountId).isEmpty)
            #expect(try await visitor.post("/accounts/\(tenantID)/\(account.accountId)/sign-out", ["session": account.sessionId], csrf: accountPage.csrf).status == 404)
            let deleted = try await visitor.post("/accounts/\(tenantID)/\(account.accountId)/delete", [:], csrf: accountPage.csrf)
            #expect(deleted.status == 303 && deleted.location == "/accounts?tenant=\(tenantID)&done=account-deleted")
            #expect(try await f.live.app.accounts.account(tenantID: tenantID, id: account.accountId)?.deletedAt != nil)
            let actions = try await f.console.auditLog().map(\.entry.action)
            #expect(actions.contains("account.sign_out") && actions.contains("account.delete") && actions.filter { $0 == "account.sign_out" }.count == 1)
            #expect(try await visitor.get("/accounts/\(tenantID)/no-such-account").status == 404)
            #expect(try await visitor.get("/runs/\(tenantID)/no-such-run").status == 404)
        }
    }
}
