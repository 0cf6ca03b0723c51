import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP
import GatehouseVerificationEngine

extension ConsoleSite {
    func registerTenants(on site: RouteGroup) {
        let (directory, verification) = (directory, verification)
        on(site, .GET, "/tenants") { request, _, session in
            let tenants = try await directory.tenants()
            let rows = tenants.map { tenant -> [HTML] in
                ["<a href=\"/tenants/\(tenant.id)\">\(tenant.name)</a>", "<code>\(tenant.id)</code>",
                 "\(tenant.disabledAt == nil ? "enabled" : "disabled")", "\(ConsolePage.time(tenant.createdAt))"]
            }
            let create: HTML = session.account.role == .admin
                ? "<section><h2>Create a tenant</h2>\(ConsolePage.form(action: "/tenants", session: session, ConsolePage.field("Name", name: "name"), button: "Create"))</section>"
                : .empty
            return ConsolePage.render("Tenants", session: session, current: "/tenants", notice: Self.notice(request),
                ConsolePage.table(["Name", "Id", "State", "Created"], rows, empty: "No tenants yet.") + create)
        }
        on(site, .POST, "/tenants", role: .admin) { request, context, session in
            let form = try ConsoleForm(request, session: session)
            let tenant = try await refusing {
                try await audited(AuditEntry(actor: session.account.id, action: "tenant.create", clientAddress: context.clientAddress, detail: form["name"])) {
                    try await directory.createTenant(name: form["name"])
                }
            }
            return ConsolePage.redirect(to: "/tenants/\(tenant.id)?done=tenant-created")
        }
        on(site, .GET, "/tenants/:tenantId") { request, context, session in
            let id = context.parameter("tenantId")
            let tenant = try await refusing { try await directory.tenant(id: id) }
            async let applications = directory.applications(tenantID: id)
            async let keys = directory.keys(tenantID: id)
            async let balance = verification.balance(tenantID: id)
            return ConsolePage.render(tenant.name, session: session, current: "/tenants", notice: Self.notice(request),
                try await Self.tenantPage(tenant, applications: applications, keys: keys, balance: balance, session: session))
        }
        tenantAction(site, "disable", confirmed: true) { id, _ in try await directory.disableTenant(id: id); return "tenant-disabled" }
        tenantAction(site, "enable", confirmed: true) { id, _ in _ = try await directory.enableTenant(id: id); return "tenant-enabled" }
        tenantAction(site, "balance", confirmed: true) { id, form in
            guard let micros = Money.signedMicros(form["amount"]) else { throw ConsoleFailure.invalid("The amount must be a number such as 25 or -2.50.") }
            _ = try await verification.adjustBalance(tenantID: id, byMicros: micros)
            return "balance-changed"
        }
        tenantAction(site, "applications", confirmed: false) { id, form in
            _ = try await directory.createApplication(tenantID: id, name: form["name"])
            return "application-created"
        }
        on(site, .POST, "/tenants/:tenantId/keys/:keyId/revoke", role: .admin) { request, context, session in
            let (id, keyID) = (context.parameter("tenantId"), context.parameter("keyId"))
            _ = try ConsoleForm(request, session: session)
            try requireConfirmation(session, returnTo: "/tenants/\(id)")
            try await refusing {
                try await audited(AuditEntry(actor: session.account.id, action: "key.revoke", target: keyID, clientAddress: context.clientAddress)) {
                    try await directory.revokeKey(tenantID: id, keyID: keyID)
                }
            }
            return ConsolePage.redirect(to: "/tenants/\(id)?done=key-revoked")
        }
        // A new key's secret is on this answer and nowhere else: no redirect, no store.
        on(site, .POST, "/tenants/:tenantId/keys", role: .admin) { request, context, session in
            let id = context.parameter("tenantId")
            let form = try ConsoleForm(request, session: session)
            try requireConfirmation(session, returnTo: "/tenants/\(id)")
            let platform = form["platform"].isEmpty ? nil : form["platform"]
            if let platform, !TenantDirectory.platforms.contains(platform) { throw ConsoleFailure.invalid("The platform must be IOS, ANDROID or WEB.") }
            let application = form["application"].isEmpty ? nil : form["application"]
            let issued = try await refusing {
                try await audited(AuditEntry(actor: session.account.id, action: "key.create", target: id, clientAddress: context.clientAddress, detail: form["label"])) {
                    try await directory.issueKey(tenantID: id, applicationID: application, label: form["label"], platform: platform)
                }
            }
            return ConsolePage.render("Key created", session: session, current: "/tenants", """
                <p>This is the only time the key is shown: copy it now. Gatehouse keeps only its hash.</p>\
                <p><output class="secret" data-copy>\(issued.secret)</output></p>\
                <p><a href="/tenants/\(id)">Back to the tenant</a></p>
                """)
        }
    }

    /// `POST /tenants/:tenantId/<name>` for an admin: the form read, the confirmation asked
    /// for when `confirmed`, the change audited, then back to the tenant with a notice.
    private func tenantAction(
        _ site: RouteGroup, _ name: String, confirmed: Bool, _ change: @escaping @Sendable (String, ConsoleForm) async throws -> String
    ) {
        on(site, .POST, "/tenants/:tenantId/\(name)", role: .admin) { request, context, session in
            let id = context.parameter("tenantId")
            let form = try ConsoleForm(request, session: session)
            if confirmed { try requireConfirmation(session, returnTo: "/tenants/\(id)") }
            let detail = form.fields.filter { $0.key != "csrf" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let notice = try await refusing {
                try await audited(AuditEntry(actor: session.account.id, action: "tenant.\(name)", target: id, clientAddress: context.clientAddress,
                    detail: detail.isEmpty ? nil : detail)) {
                    try await change(id, form)
                }
            }
            return ConsolePage.redirect(to: "/tenants/\(id)?done=\(notice)")
        }
    }

    static func tenantPage(_ tenant: Tenant, applications: [Application], keys: [APIKey], balance: Int64, session: ConsoleSession) -> HTML {
        let admin = session.account.role == .admin
        let applicationRows = applications.map { app -> [HTML] in ["\(app.name)", "<code>\(app.id)</code>", "\(ConsolePage.time(app.createdAt))"] }
        let keyRows = keys.map { key -> [HTML] in
            let revoke: HTML = admin && key.revokedAt == nil
                ? ConsolePage.form(action: "/tenants/\(tenant.id)/keys/\(key.id)/revoke", session: session, button: "Revoke", confirm: "Revoke this key? Apps using it stop working.")
                : .empty
            return ["\(key.label)", "<code>\(key.id)</code>", "\(key.platform ?? "server")", "\(ConsolePage.time(key.createdAt))",
                    "\(key.revokedAt.map { "revoked " + ConsolePage.time($0) } ?? "live")", revoke]
        }
        var actions = HTML.empty
        if admin {
            let state = tenant.disabledAt == nil
                ? ConsolePage.form(action: "/tenants/\(tenant.id)/disable", session: session, button: "Disable tenant", confirm: "Disable this tenant? Its keys and tokens are refused until enabled.")
                : ConsolePage.form(action: "/tenants/\(tenant.id)/enable", session: session, button: "Enable tenant")
            let applicationOptions = applications.map { app -> HTML in "<option value=\"\(app.id)\">\(app.name)</option>" }
            actions = """
                <section><h2>Actions</h2>\(state)\
                \(ConsolePage.form(action: "/tenants/\(tenant.id)/balance", session: session,
                    ConsolePage.field("Add to the verification balance (negative to take)", name: "amount", extra: " inputmode=\"decimal\""), button: "Change balance"))\
                \(ConsolePage.form(action: "/tenants/\(tenant.id)/applications", session: session, ConsolePage.field("Application name", name: "name"), button: "Create application"))\
                \(ConsolePage.form(action: "/tenants/\(tenant.id)/keys", session: session,
                    ConsolePage.field("Key label", name: "label")
                    + "<label>Application <select name=\"application\"><option value=\"\">none</option>\(applicationOptions)</select></label>"
                    + "<label>Platform <select name=\"platform\"><option value=\"\">server key</option><option>IOS</option><option>ANDROID</option><option>WEB</option></select></label>",
                    button: "Create key"))</section>
                """
        }
        return """
            <dl class="facts"><div><dt>Id</dt><dd><code>\(tenant.id)</code></dd></div>\
            <div><dt>State</dt><dd>\(tenant.disabledAt.map { "disabled " + ConsolePage.time($0) } ?? "enabled")</dd></div>\
            <div><dt>Verification balance</dt><dd>\(Money.string(balance))</dd></div>\
            <div><dt>Created</dt><dd>\(ConsolePage.time(tenant.createdAt))</dd></div></dl>\
            <p><a href="/prefix-blocks?tenant=\(tenant.id)">Pumping guard</a> · <a href="/?tenant=\(tenant.id)">Traffic</a></p>\
            <section><h2>Applications</h2>\(ConsolePage.table(["Name", "Id", "Created"], applicationRows))</section>\
            <section><h2>Keys</h2>\(ConsolePage.table(["Label", "Id", "Platform", "Created", "State", ""], keyRows))</section>\(actions)
            """
    }

    /// An engine's refusal as the console says it: a missing record is 404, a refused value
    /// is 400 with the engine's sentence.
    func refusing<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as CoreError {
            if case .noSuch = error.reason { throw ConsoleFailure.notFound }
            throw ConsoleFailure.invalid(error.text.prefix(1).uppercased() + error.text.dropFirst() + ".")
        }
    }
}
