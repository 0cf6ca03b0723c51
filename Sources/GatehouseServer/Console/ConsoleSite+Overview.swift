import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWorkflowsEngine

extension ConsoleSite {
    func registerOverview(on site: RouteGroup) {
        let (verification, directory, commerce, workflows, clock) = (verification, directory, commerce, workflows, environment.clock)
        on(site, .GET, "/") { request, _, session in
            let days = min(max(Int(request.queryValue("days") ?? "") ?? 1, 1), 31)
            let tenants = try await directory.tenants()
            let tenantID = ConsolePage.chosenTenant(request, among: tenants, orFirst: false)?.id
            let since = clock.now.addingTimeInterval(-Double(days) * 86_400)
            async let activity = verification.activity(tenantID: tenantID, since: since)
            async let subscriptions = commerce.activeSubscriptionCount(tenantID: tenantID)
            async let runs = workflows.runOutcomes(tenantID: tenantID, since: since)
            return ConsolePage.render("Overview", session: session, current: "/",
                Self.overview(try await activity, subscriptions: try await subscriptions, runs: try await runs, days: days, tenantID: tenantID, tenants: tenants))
        }
    }

    static func overview(
        _ activity: (hours: [VerificationHour], countries: [CountryConversion]), subscriptions: Int, runs: RunOutcomes, days: Int, tenantID: String?,
        tenants: [Tenant]
    ) -> HTML {
        let hours = activity.hours
        let label: (VerificationHour) -> String = { hour in
            let text = ConsolePage.time(hour.start)
            return days > 1 ? String(text.prefix(13)) + "h" : String(text.dropFirst(11).prefix(5))
        }
        let codes = BarChart(title: "Codes per hour", labels: hours.map(label), series: [
            .init(name: "sent", cssClass: "sent", values: hours.map { Double($0.sent) }),
            .init(name: "verified", cssClass: "verified", values: hours.map { Double($0.verified) }),
            .init(name: "prefixes blocked", cssClass: "blocked", values: hours.map { Double($0.blocks) }),
        ])
        let spend = BarChart(
            title: "Estimated SMS spend per hour", labels: hours.map(label),
            series: [.init(name: "spend", cssClass: "spend", values: hours.map { Double($0.estimatedSpendMicros) / 1_000_000 })],
            format: { String(format: "%.2f", $0) }, smallestStep: 0.01)
        let (sent, verified) = (hours.reduce(0) { $0 + $1.sent }, hours.reduce(0) { $0 + $1.verified })
        let totalSpend = hours.reduce(Int64(0)) { $0 &+ $1.estimatedSpendMicros }
        let rate = sent > 0 ? Double(verified) / Double(sent) : 0
        let statuses = WorkflowRun.Status.allCases
        let outcomes = BarChart(title: "Workflow runs by status", labels: statuses.map(\.rawValue), series: [
            .init(name: "runs", cssClass: "runs", values: statuses.map { Double(runs.byStatus[$0] ?? 0) }),
        ])
        let countries = activity.countries.map { country -> [HTML] in
            ["\(country.country)", "\(country.sent)", "\(country.verified)",
             "\(HTML.meter(country.rate, label: "conversion")) \(String(format: "%.0f %%", country.rate * 100))"]
        }
        let dayOptions = [1, 2, 7, 31].map { value -> HTML in
            value == days ? "<option value=\"\(value)\" selected>\(value) d</option>" : "<option value=\"\(value)\">\(value) d</option>"
        }
        return """
            <form method="get" action="/" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: tenantID, all: true))\
            <label>Period <select name="days">\(dayOptions)</select></label><button type="submit">Show</button></form>\
            <dl class="facts"><div><dt>Codes sent</dt><dd>\(sent)</dd></div><div><dt>Verified</dt><dd>\(verified)</dd></div>\
            <div><dt>Conversion</dt><dd>\(String(format: "%.1f %%", rate * 100))</dd></div>\
            <div><dt>Estimated SMS spend</dt><dd>\(String(format: "%.2f", Double(totalSpend) / 1_000_000))</dd></div>\
            <div><dt>Active subscriptions</dt><dd>\(subscriptions)</dd></div>\
            <div><dt>Workflow runs</dt><dd>\(runs.byStatus.values.reduce(0, +))</dd></div></dl>\
            <section><h2>Codes per hour</h2>\(codes.svg())</section>\
            <section><h2>Estimated SMS spend</h2>\(spend.svg(height: 180))</section>\
            <section><h2>Workflow outcomes</h2>\(outcomes.svg(width: 480, height: 180))</section>\
            <section><h2>Conversion by country</h2>\(ConsolePage.table(["Country", "Sent", "Verified", "Conversion"], countries, empty: "No codes sent in this period."))</section>
            """
    }
}
