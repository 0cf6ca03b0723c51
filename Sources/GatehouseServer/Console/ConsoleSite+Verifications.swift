import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP
import GatehouseVerificationEngine

extension ConsoleSite {
    /// The verification log: masked numbers, filters and paging in the query string; an
    /// admin may reveal one number (after the password, audited).
    func registerVerifications(on site: RouteGroup) {
        let (verification, directory, console, clock) = (verification, directory, console, environment.clock)
        on(site, .GET, "/verifications") { request, _, session in
            var filter = VerificationLogFilter()
            filter.tenantID = request.queryValue("tenant").flatMap { $0.isEmpty ? nil : $0 }
            filter.status = request.queryValue("status").flatMap(VerificationStatus.init(rawValue:))
            filter.channel = request.queryValue("channel").flatMap(VerificationChannel.init(rawValue:))
            filter.country = request.queryValue("country").flatMap { $0.count == 2 ? $0.uppercased() : nil }
            filter.before = request.queryValue("before").flatMap(Self.cursor)
            filter.limit = 51
            let entries = try await verification.verificationLog(filter)
            let tenants = try await directory.tenants()
            return ConsolePage.render("Verification log", session: session, current: "/verifications", notice: Self.notice(request),
                Self.logPage(Array(entries.prefix(50)), more: entries.count > 50 ? entries[49] : nil, filter: filter, tenants: tenants, session: session,
                    now: clock.now))
        }
        on(site, .POST, "/verifications/:verificationId/reveal", role: .admin) { request, context, session in
            _ = try ConsoleForm(request, session: session)
            let id = context.parameter("verificationId")
            try requireConfirmation(session, returnTo: "/verifications")
            guard let entry = try await verification.verification(id: id) else { throw ConsoleFailure.notFound }
            try await console.record(AuditEntry(actor: session.account.id, action: "number.reveal", target: id, clientAddress: context.clientAddress,
                detail: "verification of tenant \(entry.tenantId)"))
            return ConsolePage.render("Number revealed", session: session, current: "/verifications", """
                <p>The number of verification <code>\(id)</code> (this reveal is in the audit log):</p>\
                <p><output class="secret">\(ConsoleMask.international(entry.destination))</output></p><p><a href="/verifications">Back to the log</a></p>
                """)
        }
    }

    static func logPage(
        _ entries: [VerificationLogEntry], more: VerificationLogEntry?, filter: VerificationLogFilter, tenants: [Tenant], session: ConsoleSession, now: Date
    ) -> HTML {
        let admin = session.account.role == .admin
        let rows = entries.map { entry -> [HTML] in
            let record = entry.record
            let reveal: HTML = admin
                ? ConsolePage.form(action: "/verifications/\(record.id)/reveal", session: session, button: "Reveal", style: "link")
                : .empty
            let receipt = entry.deliveryStatus.map { "\($0) " + ConsolePage.time(entry.deliveryStatusAt) } ?? "—"
            return ["\(ConsolePage.time(record.createdAt))", "\(ConsoleMask.destination(record.destination)) \(reveal)", "\(entry.country ?? "—")",
                    "\(record.channel.rawValue)", "\(record.status(at: now).rawValue)", "\(receipt)", "\(record.attempts) / \(record.maxAttempts)",
                    "\(Money.string(record.feeMicros))", "\(entry.applicationName)"]
        }
        let options: ([String], String?) -> [HTML] = { values, chosen in
            values.map { value -> HTML in value == chosen ? "<option selected>\(value)</option>" : "<option>\(value)</option>" }
        }
        var query = [("tenant", filter.tenantID), ("status", filter.status?.rawValue), ("channel", filter.channel?.rawValue), ("country", filter.country)]
            .compactMap { name, value in value.map { "\(name)=\(ConsolePage.queryEscaped($0))" } }
        var next = HTML.empty
        if let more {
            query.append("before=\(Int64((more.record.createdAt.timeIntervalSince1970 * 1_000_000).rounded()))-\(more.record.id)")
            next = "<p><a href=\"/verifications?\(query.joined(separator: "&"))\" rel=\"next\">Older</a></p>"
        }
        return """
            <form method="get" action="/verifications" class="filters">\
            \(ConsolePage.tenantSelect(tenants, chosen: filter.tenantID, all: true))\
            <label>Status <select name="status"><option value="">any</option>\(options(VerificationStatus.allCases.map(\.rawValue), filter.status?.rawValue))</select></label>\
            <label>Channel <select name="channel"><option value="">any</option>\(options(VerificationChannel.allCases.map(\.rawValue), filter.channel?.rawValue))</select></label>\
            \(ConsolePage.field("Country", name: "country", value: filter.country ?? "", required: false, extra: " maxlength=\"2\" size=\"3\""))\
            <button type="submit">Filter</button></form>\
            \(ConsolePage.table(["Created", "Number", "Country", "Channel", "Status", "Delivery receipt", "Attempts", "Price", "Application"], rows,
                empty: "No verifications match (finished ones are kept for a day)."))\(next)
            """
    }

    /// `<microseconds>-<id>`: the time and id of the last row on the page before.
    static func cursor(_ text: String) -> (at: Date, id: String)? {
        // Microseconds between 1970 and 2100: nothing else was ever written in a cursor.
        guard let dash = text.firstIndex(of: "-"), let micros = Int64(text[..<dash]), (0...4_102_444_800_000_000).contains(micros) else { return nil }
        return (Date(timeIntervalSince1970: Double(micros) / 1_000_000), String(text[text.index(after: dash)...]))
    }
}
