import Foundation
import GatehouseAccountsEngine
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP

extension ConsoleSite {
    /// End users' accounts: search, the devices signed in (sign out one or all), delete.
    func registerAccounts(on site: RouteGroup) {
        let (accounts, directory, console) = (accounts, directory, console)
        on(site, .GET, "/accounts") { request, _, session in
            let tenants = try await directory.tenants()
            let tenant = ConsolePage.chosenTenant(request, among: tenants)
            let query = request.queryValue("q") ?? ""
            var found: [AccountSummary] = []
            if let tenant { found = try await accounts.searchAccounts(tenantID: tenant.id, query: query) }
            let rows = found.map { account -> [HTML] in
                ["<a href=\"/accounts/\(account.tenantId)/\(account.id)\"><code>\(account.id)</code></a>", "\(account.phone.map(ConsoleMask.phone) ?? "—")",
                 "\(account.email.map(ConsoleMask.email) ?? "—")", "\(account.status)", "\(ConsolePage.time(account.createdAt))"]
            }
            return ConsolePage.render("Accounts", session: session, current: "/accounts", notice: Self.notice(request), """
                <form method="get" action="/accounts" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: tenant?.id))\
                \(ConsolePage.field("Id, phone or email (the start of it)", name: "q", type: "search", value: query, required: false))\
                <button type="submit">Search</button></form>\
                \(ConsolePage.table(["Account", "Phone", "Email", "Status", "Created"], rows, empty: "No account matches."))
                """)
        }
        on(site, .GET, "/accounts/:tenantId/:accountId") { request, context, session in
            let (tenantID, accountID) = (context.parameter("tenantId"), context.parameter("accountId"))
            guard let account = try await accounts.account(tenantID: tenantID, id: accountID) else { throw ConsoleFailure.notFound }
            let sessions = try await accounts.sessions.sessions(accountID: accountID)
            let passkeys = try await accounts.passkeys(tenantID: tenantID, accountID: accountID)
            return ConsolePage.render("Account", session: session, current: "/accounts", notice: Self.notice(request),
                Self.accountPage(account, sessions: sessions, passkeys: passkeys, session: session))
        }
        accountAction(site, "reveal", confirmed: true) { account, _, session, context in
            try await console.record(AuditEntry(actor: session.account.id, action: "account.reveal", target: account.id, clientAddress: context.clientAddress,
                detail: "tenant \(account.tenantId)"))
            return ConsolePage.render("Account revealed", session: session, current: "/accounts", """
                <p>This reveal is in the audit log.</p><dl class="facts"><div><dt>Phone</dt><dd>\(account.phone.map(ConsoleMask.international) ?? "—")</dd></div>\
                <div><dt>Email</dt><dd>\(account.email ?? "—")</dd></div><div><dt>Name</dt><dd>\(account.name ?? "—")</dd></div></dl>\
                <p><a href="/accounts/\(account.tenantId)/\(account.id)">Back to the account</a></p>
                """)
        }
        accountAction(site, "sign-out-all", confirmed: true) { account, _, session, context in
            try await audited(AuditEntry(actor: session.account.id, action: "account.sign_out_all", target: account.id, clientAddress: context.clientAddress)) {
                try await accounts.sessions.signOutEverywhere(accountID: account.id, reason: .sessionNotFound)
            }
            return ConsolePage.redirect(to: "/accounts/\(account.tenantId)/\(account.id)?done=signed-out")
        }
        accountAction(site, "sign-out", confirmed: false) { account, form, session, context in
            do {
                try await audited(AuditEntry(actor: session.account.id, action: "account.sign_out", target: account.id, clientAddress: context.clientAddress,
                    detail: "session \(form["session"])")) {
                    try await accounts.sessions.signOut(accountID: account.id, sessionID: form["session"])
                }
            } catch is SessionError {
                throw ConsoleFailure.notFound
            }
            return ConsolePage.redirect(to: "/accounts/\(account.tenantId)/\(account.id)?done=signed-out")
        }
        accountAction(site, "delete", confirmed: true) { account, _, session, context in
            let deleted = try await audited(AuditEntry(actor: session.account.id, action: "account.delete", target: account.id, clientAddress: context.clientAddress)) {
                try await accounts.deleteAccount(tenantID: account.tenantId, accountID: account.id)
            }
            guard deleted else { throw ConsoleFailure.invalid("The account was deleted already.") }
            return ConsolePage.redirect(to: "/accounts?tenant=\(account.tenantId)&done=account-deleted")
        }
    }

    /// A passkey's row: a counter that went back (a possible cloned authenticator, refused at
    /// that sign-in) is flagged with when.
    static func passkeyRow(_ passkey: Passkey) -> [HTML] {
        let regressed: HTML = passkey.counterRegressedAt.map { "<strong>\(ConsolePage.time($0))</strong>" } ?? "—"
        return ["\(passkey.name)", "\(ConsolePage.time(passkey.createdAt))", "\(ConsolePage.time(passkey.lastUsedAt))", passkey.backedUp ? "yes" : "no", regressed]
    }

    /// `POST /accounts/:tenantId/:accountId/<name>` for an admin: the account found, the
    /// form read, the password asked again when `confirmed`.
    private func accountAction(
        _ site: RouteGroup, _ name: String, confirmed: Bool,
        _ act: @escaping @Sendable (AccountSummary, ConsoleForm, ConsoleSession, RequestContext) async throws -> Response
    ) {
        let accounts = accounts
        on(site, .POST, "/accounts/:tenantId/:accountId/\(name)", role: .admin) { request, context, session in
            let (tenantID, accountID) = (context.parameter("tenantId"), context.parameter("accountId"))
            let form = try ConsoleForm(request, session: session)
            guard let account = try await accounts.account(tenantID: tenantID, id: accountID) else { throw ConsoleFailure.notFound }
            if confirmed { try requireConfirmation(session, returnTo: "/accounts/\(tenantID)/\(accountID)") }
            return try await act(account, form, session, context)
        }
    }

    static func accountPage(_ account: AccountSummary, sessions: [SessionInfo], passkeys: [Passkey], session: ConsoleSession) -> HTML {
        let admin = session.account.role == .admin
        let base = "/accounts/\(account.tenantId)/\(account.id)"
        let rows = sessions.map { device -> [HTML] in
            let signOut: HTML = admin
                ? ConsolePage.form(action: base + "/sign-out", session: session, "<input type=\"hidden\" name=\"session\" value=\"\(device.id)\">", button: "Sign out")
                : .empty
            return ["\(device.deviceName ?? "—")", "\(device.platform ?? "—")", "\(device.appVersion ?? "—")", "\(ConsolePage.time(device.createdAt))",
                    "\(ConsolePage.time(device.lastUsedAt))", signOut]
        }
        let actions: HTML = admin && account.deletedAt == nil ? """
            <section><h2>Actions</h2>\(ConsolePage.form(action: base + "/reveal", session: session, button: "Reveal phone and email"))\
            \(ConsolePage.form(action: base + "/sign-out-all", session: session, button: "Sign out everywhere", confirm: "Sign this account out on every device?"))\
            \(ConsolePage.form(action: base + "/delete", session: session, button: "Delete account", confirm: "Delete this account? Its phone, email and name are erased."))</section>
            """ : .empty
        return """
            <dl class="facts"><div><dt>Id</dt><dd><code>\(account.id)</code></dd></div>\
            <div><dt>Phone</dt><dd>\(account.phone.map(ConsoleMask.phone) ?? "—")</dd></div>\
            <div><dt>Email</dt><dd>\(account.email.map(ConsoleMask.email) ?? "—")</dd></div>\
            <div><dt>Status</dt><dd>\(account.status)</dd></div><div><dt>Created</dt><dd>\(ConsolePage.time(account.createdAt))</dd></div></dl>\
            <p><a href="/purchases/\(account.tenantId)/\(account.id)">Purchases and entitlement</a> · <a href="/runs?tenant=\(account.tenantId)&account=\(account.id)">Workflow runs</a></p>\
            <section><h2>Signed-in devices</h2>\(ConsolePage.table(["Device", "Platform", "App version", "Signed in", "Last used", ""], rows,
                empty: "No device is signed in."))</section>\
            <section><h2>Passkeys</h2>\(ConsolePage.table(["Name", "Added", "Last used", "Backed up", "Counter went back"], passkeys.map(passkeyRow),
                empty: "No passkeys: this account signs in with codes."))</section>\(actions)
            """
    }
}
