import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The console's security as plain HTTP sees it: headers, cookies, CSRF and origin checks,
/// roles, confirmation, timeouts and the audit rows of what operators change.
@Suite struct ConsoleSecurityTests {
    static let csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    @Test(arguments: TestDatabaseKind.available)
    func signInGivesAStrictCookieAndEveryPageItsHeaders(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try ConsoleVisitor(f.live)
            let first = try await visitor.get("/")
            #expect(first.status == 303 && first.location == "/sign-in")
            let form = try await visitor.get("/sign-in")
            #expect(form.status == 200 && form.header("Content-Security-Policy") == Self.csp)
            f.clock.advance(by: 30)
            let signedIn = try await visitor.signIn(email: f.admin.email, password: f.admin.password, totpURI: f.admin.totpURI, at: f.clock.now)
            #expect(signedIn.status == 303 && signedIn.location == "/")
            let cookie = try #require(signedIn.headers.first { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("gatehouse-console=") }?.value)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/") && !cookie.contains("Secure"))
            for path in ["/", "/tenants", "/prefix-blocks", "/operators", "/audit", "/tenants/\(f.live.credentials.tenantId)", "/no-such-page"] {
                let page = try await visitor.get(path)
                #expect(page.status == (path == "/no-such-page" ? 404 : 200), "\(path)")
                #expect(page.header("Content-Security-Policy") == Self.csp, "\(path)")
                #expect(page.header("X-Frame-Options") == "DENY" && page.header("X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(page.header("Cache-Control") == "no-store" && page.header("Referrer-Policy") == "no-referrer", "\(path)")
                #expect(page.header("Content-Type") == "text/html; charset=utf-8", "\(path)")
                #expect(!page.body.contains("<script>") && !page.body.contains(" style="), "\(path)")
            }
            let audit = try await f.console.auditLog().map(\.entry.action)
            #expect(audit.contains("operator.sign_in"))
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func wrongFactorsAreRefusedAlikeUntilTheLockout(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try ConsoleVisitor(f.live)
            let code = ConsoleVisitor.code(f.admin.totpURI, at: f.clock.now)
            // The passkey form is there for console.js to show; sent without an assertion (no
            // script ran) it is no failed sign-in; with one that cannot be read, it is.
            let page = try await visitor.get("/sign-in")
            #expect(page.body.contains("<section class=\"passkey\" hidden>") && page.body.contains("data-passkey-get=\"{&quot;"))
            let unanswered = try await visitor.post(
                "/sign-in", ["email": f.admin.email, "password": f.admin.password, "second": "passkey", "assertion": ""], csrf: page.csrf)
            #expect(unanswered.status == 400 && unanswered.body.contains("did not answer with a passkey") && unanswered.body.contains("data-passkey-get="))
            let tries: [[String: String]] = [
                ["email": f.admin.email, "password": "wrong password!!", "code": code], ["email": f.admin.email, "password": f.admin.password, "code": "000000"],
                ["email": "nobody@ops.example", "password": f.admin.password, "code": code],
                ["email": f.admin.email, "password": f.admin.password, "second": "passkey", "assertion": #"{"id":"AA","rawId":"AA","type":"public-key"}"#],
            ]
            for fields in tries {
                let form = try await visitor.get("/sign-in")
                let page = try await visitor.post("/sign-in", fields, csrf: form.csrf)
                #expect(page.status == 401 && page.body.contains("The email, password or code is wrong."), "\(fields)")
                #expect(visitor.cookies["gatehouse-console"] == nil)
            }
            for _ in 0..<2 {
                let form = try await visitor.get("/sign-in")
                _ = try await visitor.post("/sign-in", ["email": f.admin.email, "password": "still wrong!!!", "code": code], csrf: form.csrf)
            }
            f.clock.advance(by: 30)
            let locked = try await visitor.signIn(email: f.admin.email, password: f.admin.password, totpURI: f.admin.totpURI, at: f.clock.now)
            #expect(locked.status == 403 && locked.body.contains("Too many failed sign-ins"))
            f.clock.advance(by: ConsoleEngine.lockout + 30)
            let after = try await visitor.signIn(email: f.admin.email, password: f.admin.password, totpURI: f.admin.totpURI, at: f.clock.now)
            #expect(after.status == 303)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aFormNeedsItsTokenAndTheConsolesOrigin(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.admin)
            let csrf = try #require(try await visitor.get("/tenants").csrf)
            let refused: [(String, [String: String], String?, [(String, String)]?)] = [
                ("no token", ["name": "t1"], nil, nil),
                ("a wrong token", ["name": "t2", "csrf": String(csrf.reversed())], nil, nil),
                ("cross-site", ["name": "t3"], csrf, [("Sec-Fetch-Site", "cross-site"), ("Origin", "https://evil.example")]),
                ("same-site", ["name": "t4"], csrf, [("Sec-Fetch-Site", "same-site")]),
                ("a foreign origin", ["name": "t5"], csrf, [("Origin", "https://evil.example")]),
                ("a null origin", ["name": "t6"], csrf, [("Origin", "null")]),
                ("neither header", ["name": "t7"], csrf, []),
            ]
            for (why, fields, token, headers) in refused {
                let page = try await visitor.post("/tenants", fields, csrf: token, headers: headers)
                #expect(page.status == 403, "\(why)")
                #expect(page.header("Content-Security-Policy") == Self.csp, "\(why)")
            }
            let sessionless = try ConsoleVisitor(f.live)
            #expect(try await sessionless.post("/sign-in", ["email": f.admin.email, "password": f.admin.password, "code": "123456"], csrf: "x").status == 403)
            // DNS rebinding: another name made to resolve to the console's address gets nothing,
            // not even with its own Origin and Sec-Fetch-Site; loopback names are answered.
            let port = try #require(URL(string: visitor.base)?.port)
            let rebound = [("Host", "evil.example:\(port)")]
            #expect(try await visitor.send("GET", "/sign-in", body: nil, headers: rebound).status == 403)
            let reboundPost = try await visitor.send("POST", "/tenants", body: Data("csrf=\(csrf)&name=t8".utf8), headers: rebound + [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://evil.example:\(port)"), ("Sec-Fetch-Site", "same-origin"),
            ])
            #expect(reboundPost.status == 403 && reboundPost.body.contains("console-public-url"))
            for name in ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"] {
                #expect(try await visitor.send("GET", "/tenants", body: nil, headers: [("Host", "\(name):\(port)")]).status == 200, "\(name)")
            }
            let names = try await f.live.app.directory.tenants().map(\.name)
            #expect(!names.contains { $0.hasPrefix("t") && $0.count == 2 })
            let created = try await visitor.post("/tenants", ["name": "Made in the console"], csrf: csrf)
            #expect(created.status == 303 && created.location?.hasSuffix("?done=tenant-created") == true)
            let tenant = try #require(try await f.live.app.directory.tenants().first { $0.name == "Made in the console" })
            let audit = try await f.console.auditLog()
            #expect(audit.contains { $0.entry.action == "tenant.create" && $0.entry.actor == f.admin.id && $0.entry.detail == "Made in the console" })
            #expect(try await visitor.get("/tenants/\(tenant.id)?done=tenant-created").body.contains("Tenant created."))
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aViewerLooksButCannotAct(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.viewer)
            let page = try await visitor.get("/tenants")
            #expect(page.status == 200 && !page.body.contains("action=\"/tenants\""))
            let tenantID = f.live.credentials.tenantId
            for (path, fields) in [("/tenants", ["name": "viewer made"]), ("/tenants/\(tenantID)/disable", [:]), ("/tenants/\(tenantID)/keys", ["label": "k"]),
                                   ("/prefix-blocks/pin", ["tenant": tenantID, "prefix": "44"]), ("/operators", ["email": "x@ops.example", "role": "admin"])] {
                #expect(try await visitor.post(path, fields, csrf: page.csrf).status == 403, "\(path)")
            }
            #expect(try await f.live.app.directory.tenant(id: tenantID).disabledAt == nil)
            #expect(try await f.live.app.verification.prefixBlocks(tenantID: tenantID).isEmpty)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func destructiveActionsAskForThePasswordAgain(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.admin)
            let tenantID = f.live.credentials.tenantId
            f.clock.advance(by: ConsoleSession.confirmationWindow + 1)
            let csrf = try #require(try await visitor.get("/tenants/\(tenantID)").csrf)
            let asked = try await visitor.post("/tenants/\(tenantID)/disable", [:], csrf: csrf)
            #expect(asked.status == 303 && asked.location == "/confirm?next=/tenants/\(tenantID)")
            #expect(try await f.live.app.directory.tenant(id: tenantID).disabledAt == nil)
            let wrong = try await visitor.post("/confirm", ["password": "not the password", "next": "/tenants/\(tenantID)"], csrf: csrf)
            #expect(wrong.status == 400)
            let offsite = try await visitor.post("/confirm", ["password": f.admin.password, "next": "//evil.example/"], csrf: csrf)
            #expect(offsite.status == 303 && offsite.location == "/?done=confirmed")
            let disabled = try await visitor.post("/tenants/\(tenantID)/disable", [:], csrf: csrf)
            #expect(disabled.status == 303 && disabled.location == "/tenants/\(tenantID)?done=tenant-disabled")
            #expect(try await f.live.app.directory.tenant(id: tenantID).disabledAt != nil)
            let actions = try await f.console.auditLog().map(\.entry.action)
            #expect(actions.contains("operator.confirm_refused") && actions.contains("operator.confirm") && actions.contains("tenant.disable"))
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func sessionsEndWhenIdleWhenOldAndOnSignOut(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.admin)
            f.clock.advance(by: ConsoleSession.idleTimeout + 1)
            #expect(try await visitor.get("/").location == "/sign-in")
            let busy = try await f.signedIn(f.admin)
            var elapsed: TimeInterval = 0
            while elapsed + 20 * 60 < ConsoleSession.absoluteTimeout {
                f.clock.advance(by: 20 * 60)
                elapsed += 20 * 60
                #expect(try await busy.get("/audit").status == 200)
            }
            f.clock.advance(by: ConsoleSession.absoluteTimeout - elapsed + 1)
            #expect(try await busy.get("/audit").location == "/sign-in")
            let leaving = try await f.signedIn(f.admin)
            let token = try #require(leaving.cookies["gatehouse-console"])
            let out = try await leaving.post("/sign-out", [:], csrf: try await leaving.get("/").csrf)
            #expect(out.status == 303 && out.location == "/sign-in" && leaving.cookies["gatehouse-console"] == nil)
            #expect(try await f.console.session(token: token) == nil)
        }
    }

    /// One code, sent by several browsers at once, signs in one of them: the step is spent in
    /// the transaction that decides. The eleventh sign-in from one address in a minute is 429,
    /// before any password is hashed.
    @Test(arguments: TestDatabaseKind.available)
    func aCodeSignsInOnceUnderConcurrencyAndSignInsAreCounted(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            f.clock.advance(by: 30)
            let visitors = try (0..<6).map { _ in try ConsoleVisitor(f.live) }
            var forms: [String] = []
            for visitor in visitors { forms.append(try #require(try await visitor.get("/sign-in").csrf)) }
            let code = ConsoleVisitor.code(f.admin.totpURI, at: f.clock.now)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (visitor, csrf) in zip(visitors, forms) {
                    group.addTask { try await visitor.post("/sign-in", ["email": f.admin.email, "password": f.admin.password, "code": code], csrf: csrf).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // The others are refusals that count toward the lockout (the fifth locks: 403).
            #expect(statuses.filter { $0 == 303 }.count == 1 && statuses.allSatisfy { [303, 401, 403].contains($0) })
            let visitor = try ConsoleVisitor(f.live)
            var last = 0
            for _ in 0..<5 {
                let form = try await visitor.get("/sign-in")
                last = try await visitor.post("/sign-in", ["email": "nobody@ops.example", "password": "x", "code": "1"], csrf: form.csrf).status
            }
            #expect(last == 429)
        }
    }
}
