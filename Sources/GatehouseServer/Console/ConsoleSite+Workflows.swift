import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP
import GatehouseWorkflowsEngine

extension ConsoleSite {
    /// Workflow definitions and runs: status, duration, events; an admin cancels a run.
    func registerWorkflows(on site: RouteGroup) {
        let (workflows, directory) = (workflows, directory)
        on(site, .GET, "/runs") { request, _, session in
            let tenants = try await directory.tenants()
            guard let tenant = ConsolePage.chosenTenant(request, among: tenants) else {
                return ConsolePage.render("Workflows", session: session, current: "/runs", "<p class=\"empty\">No tenants yet.</p>")
            }
            var filter = RunListFilter(tenantID: tenant.id)
            filter.accountID = request.queryValue("account").flatMap { $0.isEmpty ? nil : $0 }
            filter.status = request.queryValue("status").flatMap(WorkflowRun.Status.init(rawValue:))
            let runs = try await workflows.runs(filter)
            let definitions = try await workflows.definitions(tenantID: tenant.id)
            return ConsolePage.render("Workflows", session: session, current: "/runs", notice: Self.notice(request),
                Self.runsPage(runs, definitions: definitions, filter: filter, tenants: tenants, session: session))
        }
        on(site, .GET, "/runs/:tenantId/:runId") { request, context, session in
            guard let found = try await workflows.run(tenantID: context.parameter("tenantId"), id: context.parameter("runId")) else {
                throw ConsoleFailure.notFound
            }
            return ConsolePage.render("Run", session: session, current: "/runs", notice: Self.notice(request), Self.runPage(found.run, events: found.events, session: session))
        }
        on(site, .POST, "/runs/:tenantId/:runId/cancel", role: .admin) { request, context, session in
            _ = try ConsoleForm(request, session: session)
            let (tenantID, runID) = (context.parameter("tenantId"), context.parameter("runId"))
            try requireConfirmation(session, returnTo: "/runs/\(tenantID)/\(runID)")
            let cancelled: Bool
            do {
                cancelled = try await audited(AuditEntry(actor: session.account.id, action: "run.cancel", target: runID, clientAddress: context.clientAddress,
                    detail: "tenant \(tenantID)")) {
                    try await workflows.cancelRun(tenantID: tenantID, id: runID)
                }
            } catch let error as WorkflowError where error.code == .notFound {
                throw ConsoleFailure.notFound
            }
            guard cancelled else { throw ConsoleFailure.invalid("The run had ended already.") }
            return ConsolePage.redirect(to: "/runs/\(tenantID)/\(runID)?done=run-cancelled")
        }
    }

    static func duration(_ run: WorkflowRun) -> String {
        guard let started = run.startedAt else { return "—" }
        let seconds = (run.finishedAt ?? started).timeIntervalSince(started)
        return run.finishedAt == nil ? "running" : String(format: "%.1f s", seconds)
    }

    static func runsPage(_ runs: [WorkflowRun], definitions: [WorkflowDefinition], filter: RunListFilter, tenants: [Tenant], session: ConsoleSession) -> HTML {
        let rows = runs.map { run -> [HTML] in
            ["<a href=\"/runs/\(run.tenantID)/\(run.id)\"><code>\(run.id)</code></a>", "\(run.workflowID)", "\(run.status.rawValue)",
             "\(ConsolePage.time(run.createdAt))", "\(duration(run))", "\(run.credits)", "\(run.errorCode ?? "—")",
             "<a href=\"/accounts/\(run.tenantID)/\(run.accountID)\"><code>\(run.accountID)</code></a>"]
        }
        let definitionRows = definitions.map { definition -> [HTML] in
            ["<code>\(definition.id)</code>", "\(definition.name)", "\(definition.executor.kind)", "\(definition.credits)", "\(definition.enabled ? "enabled" : "disabled")"]
        }
        let statuses = WorkflowRun.Status.allCases.map { status -> HTML in
            status == filter.status ? "<option selected>\(status.rawValue)</option>" : "<option>\(status.rawValue)</option>"
        }
        return """
            <form method="get" action="/runs" class="filters">\(ConsolePage.tenantSelect(tenants, chosen: filter.tenantID))\
            <label>Status <select name="status"><option value="">any</option>\(statuses)</select></label>\
            \(ConsolePage.field("Account id", name: "account", value: filter.accountID ?? "", required: false))<button type="submit">Show</button></form>\
            <section><h2>Runs</h2>\(ConsolePage.table(["Run", "Workflow", "Status", "Created", "Duration", "Credits", "Error", "Account"], rows,
                empty: "No runs."))</section>\
            <section><h2>Definitions</h2>\(ConsolePage.table(["Id", "Name", "Executor", "Credits", "State"], definitionRows, empty: "No definitions."))</section>
            """
    }

    static func runPage(_ run: WorkflowRun, events: [(status: WorkflowRun.Status, at: Date)], session: ConsoleSession) -> HTML {
        let eventRows = events.map { event -> [HTML] in ["\(ConsolePage.time(event.at))", "\(event.status.rawValue)"] }
        let cancel: HTML = session.account.role == .admin && !run.status.isFinished
            ? ConsolePage.form(action: "/runs/\(run.tenantID)/\(run.id)/cancel", session: session, button: "Cancel run", confirm: "Cancel this run? Its credits are given back.")
            : .empty
        return """
            <dl class="facts"><div><dt>Workflow</dt><dd>\(run.workflowID)</dd></div><div><dt>Status</dt><dd>\(run.status.rawValue)</dd></div>\
            <div><dt>Duration</dt><dd>\(duration(run))</dd></div><div><dt>Attempts</dt><dd>\(run.attempts)</dd></div>\
            <div><dt>Credits</dt><dd>\(run.credits) (\(run.creditsRefunded) back)</dd></div></dl>\
            \(run.errorCode.map { code -> HTML in "<p class=\"problem\">\(code): \(run.errorMessage ?? "")</p>" })\
            <p class="muted">Inputs: \(run.input.keys.sorted().joined(separator: ", ")) (values are the user's and are not shown)</p>\
            <section><h2>Events</h2>\(ConsolePage.table(["When", "Status"], eventRows, empty: "No events."))</section>\(cancel)
            """
    }
}
