import Foundation
import GatehouseConsoleEngine
import GatehouseHTML
import GatehouseHTTP

extension ConsoleSite {
    /// The audit log, newest first, fifty to a page; `before` pages back.
    func registerAudit(on site: RouteGroup) {
        let console = console
        on(site, .GET, "/audit") { request, _, session in
            let before = request.queryValue("before").flatMap(Self.cursor)
            let action = request.queryValue("action").flatMap { $0.isEmpty ? nil : $0 }
            let records = try await console.auditLog(limit: 51, before: before, action: action)
            let rows = records.prefix(50).map { record -> [HTML] in
                ["\(ConsolePage.time(record.at))", "\(record.actorEmail ?? record.entry.actor ?? "—")", "<code>\(record.entry.action)</code>",
                 "\(record.entry.target ?? "")", "\(record.entry.detail ?? "")", "\(record.entry.clientAddress ?? "")"]
            }
            var more = HTML.empty
            if records.count > 50, let last = records.prefix(50).last {
                let cursor = "\(Int64((last.at.timeIntervalSince1970 * 1_000_000).rounded()))-\(last.id)"
                more = "<p><a href=\"/audit?before=\(cursor)\(action.map { "&action=" + ConsolePage.queryEscaped($0) } ?? "")\" rel=\"next\">Older</a></p>"
            }
            return ConsolePage.render("Audit log", session: session, current: "/audit", """
                <form method="get" action="/audit" class="filters">\(ConsolePage.field("Action", name: "action", value: action ?? "", required: false))\
                <button type="submit">Filter</button></form>\
                \(ConsolePage.table(["When", "Operator", "Action", "Target", "Detail", "From"], Array(rows), empty: "Nothing recorded."))\(more)
                """)
        }
    }
}
