import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP

/// The console's page frame, forms and redirects: every page goes through `render`, every
/// form through `form`, so each carries the session's token and every value is escaped.
enum ConsolePage {
    /// The sections in the navigation, in order.
    static let sections: [(path: String, title: String)] = [
        ("/", "Overview"), ("/tenants", "Tenants"), ("/otp-applications", "OTP applications"), ("/verifications", "Verification log"),
        ("/prefix-blocks", "Pumping guard"), ("/accounts", "Accounts"), ("/runs", "Workflows"), ("/managed-apis", "Managed APIs"),
        ("/possession", "Possession checks"), ("/operators", "Operators"), ("/audit", "Audit log"),
    ]

    /// A whole page: navigation (when signed in), the notice after an action, the content.
    static func render(_ title: String, session: ConsoleSession?, current: String = "", notice: String? = nil, status: Int = 200, _ content: HTML)
        -> Response
    {
        var navigation = HTML.empty
        if let session {
            let links = sections.map { section -> HTML in
                section.path == current
                    ? "<li><a href=\"\(section.path)\" aria-current=\"page\">\(section.title)</a></li>"
                    : "<li><a href=\"\(section.path)\">\(section.title)</a></li>"
            }
            navigation = """
                <header><nav aria-label="Sections"><ul>\(links)</ul></nav>\
                <div class="who"><a href="/account">\(session.account.email)</a> · \(session.account.role.rawValue) \
                \(form(action: "/sign-out", session: session, button: "Sign out", style: "link"))</div></header>
                """
        }
        let noticeMarkup: HTML = notice.map { "<p class=\"notice\" role=\"status\">\($0)</p>" } ?? .empty
        let page: HTML = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>\(title) · Gatehouse console</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/console.css">\
            <script src="/assets/console.js" defer></script></head>\
            <body><a class="skip" href="#main">Skip to content</a>\(navigation)<main id="main" tabindex="-1"><h1>\(title)</h1>\(noticeMarkup)\(content)</main></body></html>
            """
        return Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(Data(page.markup.utf8)))
    }

    /// A POST form with the session's token; `confirm` asks again in the browser (console.js)
    /// before a destructive action, which the server also guards.
    static func form(action: String, session: ConsoleSession, _ fields: HTML = .empty, button: String, style: String = "", confirm: String? = nil)
        -> HTML
    {
        let confirmAttribute: HTML = confirm.map { " data-confirm=\"\($0)\"" } ?? .empty
        let buttonClass: HTML = style.isEmpty ? .empty : " class=\"\(style)\""
        return """
            <form method="post" action="\(action)"\(confirmAttribute)><input type="hidden" name="csrf" value="\(session.csrfToken)">\
            \(fields)<button type="submit"\(buttonClass)>\(button)</button></form>
            """
    }

    /// A `<select name="tenant">` of every tenant, `chosen` selected; `all` adds an "All
    /// tenants" choice (the empty value).
    static func tenantSelect(_ tenants: [Tenant], chosen: String?, all: Bool = false) -> HTML {
        let options = tenants.map { tenant -> HTML in
            tenant.id == chosen ? "<option value=\"\(tenant.id)\" selected>\(tenant.name)</option>" : "<option value=\"\(tenant.id)\">\(tenant.name)</option>"
        }
        let everyone: HTML = all ? "<option value=\"\">All tenants</option>" : .empty
        return "<label>Tenant <select name=\"tenant\">\(everyone)\(options)</select></label>"
    }

    /// The tenant the query string names, if it is one; else the first (nil when there is none).
    static func chosenTenant(_ request: Request, among tenants: [Tenant], orFirst: Bool = true) -> Tenant? {
        request.queryValue("tenant").flatMap { id in tenants.first { $0.id == id } } ?? (orFirst ? tenants.first : nil)
    }

    /// A labelled input.
    static func field(_ label: String, name: String, type: String = "text", value: String = "", required: Bool = true, extra: HTML = .empty) -> HTML {
        let requiredAttribute: HTML = required ? " required" : .empty
        return "<label>\(label) <input type=\"\(type)\" name=\"\(name)\" value=\"\(value)\"\(requiredAttribute)\(extra)></label>"
    }

    /// A table with a header row; each row is cells already made markup.
    static func table(_ headings: [String], _ rows: [[HTML]], empty: String = "Nothing yet.") -> HTML {
        guard !rows.isEmpty else { return "<p class=\"empty\">\(empty)</p>" }
        let head = headings.map { heading -> HTML in "<th scope=\"col\">\(heading)</th>" }
        let body = rows.map { cells -> HTML in "<tr>\(cells.map { cell -> HTML in "<td>\(cell)</td>" })</tr>" }
        return "<table><thead><tr>\(head)</tr></thead><tbody>\(body)</tbody></table>"
    }

    /// POST-redirect-GET: a 303 to a path of the console.
    static func redirect(to path: String) -> Response {
        Response(status: 303, headers: ["Location": path, "Content-Length": "0"])
    }

    /// A page that says why the request was refused.
    static func problem(status: Int, title: String, _ why: String, requestID: String) -> Response {
        render(title, session: nil, status: status, "<p>\(why)</p><p class=\"muted\">Request \(requestID) · <a href=\"/\">Back to the console</a></p>")
    }

    /// A value for a query string.
    static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A date as operators read it: UTC, to the second.
    static func time(_ date: Date?) -> String {
        guard let date else { return "—" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        return formatter.string(from: date) + " UTC"
    }
}
