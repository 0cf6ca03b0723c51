import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP
import GatehouseVerificationEngine

extension ConsoleSite {
    /// The pumping guard of one tenant: its blocks and pins (lift, pin), and the last hour's
    /// conversion per prefix of one OTP application.
    func registerPrefixBlocks(on site: RouteGroup) {
        let (directory, verification) = (directory, verification)
        on(site, .GET, "/prefix-blocks") { request, _, session in
            let tenants = try await directory.tenants()
            guard let tenant = ConsolePage.chosenTenant(request, among: tenants) else {
                return ConsolePage.render("Pumping guard", session: session, current: "/prefix-blocks", "<p class=\"empty\">No tenants yet.</p>")
            }
            let blocks = try await verification.prefixBlocks(tenantID: tenant.id)
            let applications = try await verification.applications(tenantID: tenant.id)
            let application = request.queryValue("application").flatMap { id in applications.first { $0.id == id } } ?? applications.first
            var conversion: (baseline: Double, lines: [ConversionLine])?
            if let application { conversion = try await verification.conversion(tenantID: tenant.id, applicationID: application.id) }
            return ConsolePage.render("Pumping guard", session: session, current: "/prefix-blocks", notice: Self.notice(request),
                Self.guardPage(tenant: tenant, tenants: tenants, blocks: blocks, applications: applications, application: application, conversion: conversion, session: session))
        }
        on(site, .POST, "/prefix-blocks/pin", role: .admin) { request, context, session in
            let form = try ConsoleForm(request, session: session)
            let (tenantID, applicationID) = (form["tenant"], form["application"].isEmpty ? nil : form["application"])
            try requireConfirmation(session, returnTo: "/prefix-blocks?tenant=\(ConsolePage.queryEscaped(tenantID))")
            _ = try await refusing {
                try await audited(AuditEntry(actor: session.account.id, action: "prefix_block.pin", target: form["prefix"], clientAddress: context.clientAddress,
                    detail: "tenant \(tenantID)" + (applicationID.map { " application \($0)" } ?? " (every application)"))) {
                    try await verification.pinPrefixBlock(tenantID: tenantID, applicationID: applicationID, prefix: form["prefix"])
                }
            }
            return ConsolePage.redirect(to: "/prefix-blocks?tenant=\(ConsolePage.queryEscaped(tenantID))&done=block-pinned")
        }
        on(site, .POST, "/prefix-blocks/lift", role: .admin) { request, context, session in
            let form = try ConsoleForm(request, session: session)
            let (tenantID, applicationID) = (form["tenant"], form["application"].isEmpty ? nil : form["application"])
            // Lifting lets codes through to a range the guard (or an operator) stopped: as weighty as a pin.
            try requireConfirmation(session, returnTo: "/prefix-blocks?tenant=\(ConsolePage.queryEscaped(tenantID))")
            try await refusing {
                try await audited(AuditEntry(actor: session.account.id, action: "prefix_block.lift", target: form["prefix"], clientAddress: context.clientAddress,
                    detail: "tenant \(tenantID)" + (applicationID.map { " application \($0)" } ?? " (tenant pin)"))) {
                    try await verification.liftPrefixBlock(tenantID: tenantID, applicationID: applicationID, prefix: form["prefix"])
                }
            }
            return ConsolePage.redirect(to: "/prefix-blocks?tenant=\(ConsolePage.queryEscaped(tenantID))&done=block-lifted")
        }
    }

    static func guardPage(
        tenant: Tenant, tenants: [Tenant], blocks: [PrefixBlock], applications: [OTPApplication], application: OTPApplication?,
        conversion: (baseline: Double, lines: [ConversionLine])?, session: ConsoleSession
    ) -> HTML {
        let admin = session.account.role == .admin
        let applicationOptions = applications.map { one -> HTML in
            one.id == application?.id ? "<option value=\"\(one.id)\" selected>\(one.name)</option>" : "<option value=\"\(one.id)\">\(one.name)</option>"
        }
        // The pin form starts at the whole tenant, whatever application the page shows.
        let pinOptions = applications.map { one -> HTML in "<option value=\"\(one.id)\">\(one.name)</option>" }
        let blockRows = blocks.map { block -> [HTML] in
            let hidden: HTML = "<input type=\"hidden\" name=\"tenant\" value=\"\(tenant.id)\"><input type=\"hidden\" name=\"prefix\" value=\"\(block.prefix)\">"
                + "<input type=\"hidden\" name=\"application\" value=\"\(block.applicationId ?? "")\">"
            let lift: HTML = admin && block.active ? ConsolePage.form(action: "/prefix-blocks/lift", session: session, hidden, button: "Lift") : .empty
            return ["+\(block.prefix)", "\(block.country ?? "—")", "\(block.applicationName ?? "every application")", "\(block.reason)",
                    "\(block.sent) / \(block.verified)", "\(ConsolePage.time(block.blockedAt))",
                    "\(block.pinned ? "until lifted" : ConsolePage.time(block.blockedUntil))",
                    "\(block.active ? "active" : block.liftedAt.map { "lifted " + ConsolePage.time($0) } ?? "ended")", lift]
        }
        let conversionRows = (conversion?.lines ?? []).filter { $0.scope == "prefix" }.map { line -> [HTML] in
            let rate = line.sent > 0 ? Double(line.verified) / Double(line.sent) : 0
            return ["+\(line.value)", "\(line.sent)", "\(line.verified)", "\(HTML.meter(rate, label: "conversion")) \(String(format: "%.0f %%", rate * 100))"]
        }
        let pin: HTML = admin ? """
            <section><h2>Pin a prefix</h2>\(ConsolePage.form(action: "/prefix-blocks/pin", session: session,
                "<input type=\"hidden\" name=\"tenant\" value=\"\(tenant.id)\">"
                + ConsolePage.field("Prefix (digits after +)", name: "prefix", extra: " inputmode=\"numeric\"")
                + "<label>Application <select name=\"application\"><option value=\"\" selected>every application</option>\(pinOptions)</select></label>",
                button: "Pin", confirm: "Hold back every code to this prefix until lifted?"))</section>
            """ : .empty
        return """
            <form method="get" action="/prefix-blocks" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: tenant.id))\
            <label>Application <select name="application">\(applicationOptions)</select></label><button type="submit">Show</button></form>\
            <section><h2>Blocked prefixes</h2>\(ConsolePage.table(["Prefix", "Country", "Application", "Reason", "Sent / verified", "Since", "Until", "State", ""],
                blockRows, empty: "No prefix is blocked."))</section>\(pin)\
            <section><h2>Conversion by prefix, last hour\(application.map { " · " + $0.name } ?? "")</h2>\
            <p class="muted">Baseline: \(String(format: "%.0f %%", (conversion?.baseline ?? 0) * 100))</p>\
            \(ConsolePage.table(["Prefix", "Sent", "Verified", "Conversion"], conversionRows, empty: "No codes in the last hour."))</section>
            """
    }
}
