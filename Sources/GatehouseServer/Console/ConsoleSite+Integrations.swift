import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehousePossessionEngine
import GatehouseVerificationEngine

extension ConsoleSite {
    /// The tenant's other parts, read only: OTP applications (settings, templates, test
    /// numbers, the request callback's last failure), managed API definitions (never their
    /// secrets) and possession flows (their outcome).
    func registerIntegrations(on site: RouteGroup) {
        let (directory, verification, managedAPIs, possession) = (directory, verification, managedAPIs, possession)
        on(site, .GET, "/otp-applications") { request, _, session in
            let tenants = try await directory.tenants()
            guard let tenant = ConsolePage.chosenTenant(request, among: tenants) else { return Self.noTenants("OTP applications", "/otp-applications", session) }
            var sections: [HTML] = []
            for app in try await verification.applications(tenantID: tenant.id) {
                sections.append(Self.otpApplication(app, templates: try await verification.templates(applicationID: app.id),
                    failure: try await verification.lastCallbackFailure(applicationID: app.id)))
            }
            let numbers = try await verification.testNumbers(tenantID: tenant.id).map { number -> [HTML] in
                ["\(ConsoleMask.destination(number.destination))", "\(number.confirmed ? "confirmed by the operator" : "reserved range")",
                 "\(ConsolePage.time(number.createdAt))"]
            }
            return ConsolePage.render("OTP applications", session: session, current: "/otp-applications", """
                <form method="get" action="/otp-applications" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: tenant.id))<button type="submit">Show</button></form>\
                \(sections.isEmpty ? "<p class=\"empty\">No OTP applications.</p>" : sections.joined())\
                <section><h2>Test numbers</h2><p class="muted">Their fixed codes are not shown.</p>\
                \(ConsolePage.table(["Number or email", "Kind", "Added"], numbers, empty: "No test numbers."))</section>
                """)
        }
        on(site, .GET, "/managed-apis") { request, _, session in
            let tenants = try await directory.tenants()
            guard let tenant = ConsolePage.chosenTenant(request, among: tenants) else { return Self.noTenants("Managed APIs", "/managed-apis", session) }
            let rows = try await managedAPIs.definitions(tenantID: tenant.id).map { definition -> [HTML] in
                ["<code>\(definition.name)</code>", "\(definition.displayName)", "\(ConsoleMask.url(definition.baseURL.absoluteString))", "\(definition.auth.type.rawValue)",
                 "\(definition.mode.rawValue)", "\(definition.hasSecret ? "stored (never shown)" : "none")", "\(ConsolePage.time(definition.updatedAt))"]
            }
            return ConsolePage.render("Managed APIs", session: session, current: "/managed-apis", """
                <form method="get" action="/managed-apis" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: tenant.id))<button type="submit">Show</button></form>\
                \(ConsolePage.table(["Name", "Display name", "Base URL", "Auth", "Mode", "Secret", "Updated"], rows, empty: "No managed APIs."))
                """)
        }
        on(site, .GET, "/possession") { request, _, session in
            let tenants = try await directory.tenants()
            guard let tenant = ConsolePage.chosenTenant(request, among: tenants) else { return Self.noTenants("Possession checks", "/possession", session) }
            let rows = try await possession.flows(tenantID: tenant.id).map { flow -> [HTML] in
                ["<code>\(flow.id)</code>", "\(flow.flowType)", "\(flow.phoneNumber.map(ConsoleMask.phone) ?? "—")", "\(flow.outcome ?? "in progress")",
                 "\(flow.serverStep) / \(flow.deviceStep)", "\(flow.environment)\(flow.testMode ? " (test)" : "")", "\(ConsolePage.time(flow.createdAt))"]
            }
            return ConsolePage.render("Possession checks", session: session, current: "/possession", """
                <form method="get" action="/possession" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: tenant.id))<button type="submit">Show</button></form>\
                \(ConsolePage.table(["Flow", "Type", "Number", "Outcome", "Server / device step", "Environment", "Started"], rows, empty: "No possession checks."))
                """)
        }
    }

    static func noTenants(_ title: String, _ path: String, _ session: ConsoleSession) -> Response {
        ConsolePage.render(title, session: session, current: path, "<p class=\"empty\">No tenants yet.</p>")
    }

    static func otpApplication(_ app: OTPApplication, templates: [MessageTemplate], failure: CallbackFailure?) -> HTML {
        let limits = [("Daily limit", app.dailyLimit), ("Monthly limit", app.monthlyLimit), ("Per prefix per hour", app.prefixHourlyLimit),
                      ("Per country per hour", app.countryHourlyLimit)].map { name, value -> HTML in
            "<div><dt>\(name)</dt><dd>\(value.map(String.init) ?? "none")</dd></div>"
        }
        let templateRows = templates.map { template -> [HTML] in
            ["\(template.group.isEmpty ? "(application)" : template.group)", "\(template.channel)", "\(template.language)", "<pre>\(template.body)</pre>"]
        }
        let failureMarkup: HTML = failure.map { "<p class=\"problem\">Request callback's last failure, \(ConsolePage.time($0.at)): \($0.reason)</p>" }
            ?? "<p class=\"muted\">The request callback has not failed.</p>"
        return """
            <section><h2>\(app.name)</h2><dl class="facts"><div><dt>Id</dt><dd><code>\(app.id)</code></dd></div>\
            <div><dt>State</dt><dd>\(app.paused ? "paused" : "sending")</dd></div><div><dt>Code</dt><dd>\(app.codeLength) digits, \(app.lifetimeSeconds) s, \(app.maxAttempts) tries</dd></div>\
            <div><dt>Cooldown</dt><dd>\(app.cooldownSeconds) s</dd></div><div><dt>Minimum auth</dt><dd>\(app.minimumAuth.rawValue)</dd></div>\
            <div><dt>Callback</dt><dd>\(app.callbackURL.map(ConsoleMask.url) ?? "none")</dd></div><div><dt>Disabled countries</dt><dd>\(app.disabledCountries.isEmpty ? "none" : app.disabledCountries.joined(separator: ", "))</dd></div>\
            <div><dt>Fees</dt><dd>SMS \(Money.string(app.smsFeeMicros)) · call \(Money.string(app.calloutFeeMicros))</dd></div>\
            <div><dt>Automatic prefix blocks</dt><dd>\(app.autoBlockPrefixes ? "on" : "off")</dd></div>\(limits)</dl>\(failureMarkup)\
            \(ConsolePage.table(["Group", "Channel", "Language", "Template"], templateRows, empty: "Default templates only."))</section>
            """
    }
}
