import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The console in a real browser: Debian's headless Chromium driven by Selenium
/// (`Tests/Fixtures/console-browser/drive.py`) against a live server seeded through the real
/// APIs. Sign-in with the keyboard, lockout, every view with its data, a key shown once, a pin
/// and a lift, hostile strings shown as text, no CSP violation, a viewer who cannot act, and
/// refused cross-origin and tokenless POSTs; an operator's passkey (Chromium's virtual
/// authenticator) added, used as the second factor and removed. Screenshots go to `.build/console-screenshots/`.
@Suite struct ConsoleBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theConsoleWorksInARealBrowser() async throws {
        let live = try await LiveServer.start(.sqlite) {
            $0.consolePort = 0
            $0.consolePasswordCost = 10
        }
        do {
            try await Self.drive(live)
        } catch {
            await live.stop()
            throw error
        }
        await live.stop()
    }

    /// Seeds the server, runs drive.py against its console, and checks the report and the API.
    static func drive(_ live: LiveServer) async throws {
        let tenantID = live.credentials.tenantId
        let console = try #require(live.app.console)
        // Seeded through the real APIs: a user signed in by phone, a hostile tenant name, a
        // record whose detail holds control and bidirectional characters.
        let pair = try await DatacoveClient(live).signIn(live, phone: "+1 416 555 0143", device: "Browser probe phone")
        let account = try await live.app.accounts.sessions.authenticate(accessToken: try #require(pair["accessToken"] as? String))
        let hostileName = "<script>alert('x')</script>\"'><img src=x onerror=alert(2)>"
        let hostile = try await live.app.directory.createTenant(name: hostileName)
        try await console.record(AuditEntry(actor: nil, action: "seeded", detail: "bidi \u{202E}evil\u{7}end"))
        func make(_ email: String, _ role: ConsoleOperator.Role) async throws -> [String: String] {
            let password = "browser \(role.rawValue) passphrase \(UUID().uuidString.prefix(8))"
            let made = try await console.createOperator(email: email, role: role, password: password)
            let secret = URLComponents(string: made.totpURI)?.queryItems?.first { $0.name == "secret" }?.value ?? ""
            return ["email": email, "password": password, "totpSecret": secret]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shots = root.appendingPathComponent(".build/console-screenshots")
        let masked = "+1416••••143"
        let views: [[String: Any]] = [
            ["name": "overview", "path": "/", "contains": ["Codes per hour", "Conversion by country", "Active subscriptions"]],
            ["name": "tenants", "path": "/tenants", "contains": ["Development"]],
            ["name": "tenant", "path": "/tenants/\(tenantID)", "contains": ["Keys", "Verification balance"]],
            ["name": "otp-applications", "path": "/otp-applications?tenant=\(tenantID)", "contains": ["Test numbers"]],
            ["name": "verifications", "path": "/verifications?tenant=\(tenantID)", "contains": [masked, "verified"], "absent": ["14165550143"]],
            ["name": "prefix-blocks", "path": "/prefix-blocks?tenant=\(tenantID)", "contains": ["Conversion by prefix"]],
            ["name": "accounts", "path": "/accounts?tenant=\(tenantID)", "contains": [masked, account.accountId], "absent": ["14165550143"]],
            ["name": "account", "path": "/accounts/\(tenantID)/\(account.accountId)", "contains": ["Browser probe phone", "Sign out everywhere"]],
            ["name": "purchases", "path": "/purchases/\(tenantID)/\(account.accountId)", "contains": ["No subscription."]],
            ["name": "workflows", "path": "/runs?tenant=\(tenantID)", "contains": ["Website check"]],
            ["name": "managed-apis", "path": "/managed-apis?tenant=\(tenantID)", "contains": ["server-health"]],
            ["name": "possession", "path": "/possession?tenant=\(tenantID)", "contains": ["No possession checks."]],
            ["name": "operators", "path": "/operators", "contains": ["browser-admin@ops.example", "browser-viewer@ops.example"]],
            ["name": "audit", "path": "/audit", "contains": ["operator.create", "[U+202E]evil\u{2407}end"]],
        ]
        let report = folder.appendingPathComponent("report.json")
        let port = try #require(live.app.consoleServer).port
        let passkeyOperator = try await make("browser-passkey@ops.example", .admin)
        let config: [String: Any] = [
            "url": "http://127.0.0.1:\(port)", "passkeyUrl": "http://localhost:\(port)", "passkey": passkeyOperator, "screenshots": shots.path, "report": report.path,
            "admin": try await make("browser-admin@ops.example", .admin), "viewer": try await make("browser-viewer@ops.example", .viewer),
            "lockout": try await make("browser-lockout@ops.example", .viewer), "tenantId": tenantID, "views": views,
            "hostile": [hostileName, "bidi [U+202E]evil\u{2407}end"],
        ]
        let configFile = folder.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let driver = try ChildProcess(
            path: try SMTPTestServer.executable("python3"),
            arguments: [root.appendingPathComponent("Tests/Fixtures/console-browser/drive.py").path, configFile.path], environment: environment)
        guard let status = await driver.wait(seconds: 300) else {
            driver.signal(SIGKILL)
            Issue.record("the browser test did not end within 300 s: \(driver.text.suffix(2000))")
            return
        }
        #expect(status == 0, "drive.py: \(driver.text.suffix(2000))")
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let checks = try #require(parsed?["checks"] as? [[String: Any]])
        #expect(checks.count >= 25)
        for check in checks {
            #expect(check["ok"] as? Bool == true, "\(check["name"] ?? "?"): \(check["detail"] ?? "")")
        }
        // What the browser did took effect in the API: the key it was shown works; the pin it made was lifted.
        let secret = try #require(parsed?["keySecret"] as? String)
        #expect(try await live.app.directory.authenticate(apiKey: secret) != nil)
        #expect(try await live.app.verification.prefixBlocks(tenantID: tenantID).allSatisfy { !$0.active })
        let actions = try await console.auditLog(limit: 500).map(\.entry.action)
        #expect(actions.contains("key.create") && actions.contains("prefix_block.pin") && actions.contains("prefix_block.lift"))
        #expect(try await live.app.directory.tenants().contains { $0.id == hostile.id })
        // The passkey the browser added signed in once (its last use is kept) and was removed.
        #expect(actions.contains("operator.passkey_add") && actions.contains("operator.passkey_remove"))
        let passkeyID = try #require(try await console.operators().first { $0.account.email == passkeyOperator["email"] }).account.id
        #expect(try await console.passkeys(operatorID: passkeyID).isEmpty)
        #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("overview.png").path))
    }
}
