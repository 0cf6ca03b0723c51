import Foundation
import GatehouseWire
import GatehouseWorkflowsEngine
import GatehouseFormats

/// The workflows engine's values in the Datacove wire types.
enum WorkflowJSON {
    static func workflow(_ definition: WorkflowDefinition, gated: Bool, withInputs: Bool) -> DatacoveWire.Workflow {
        DatacoveWire.Workflow(
            id: definition.id, name: definition.name, description: definition.description, category: definition.category,
            featured: definition.featured, credits: definition.credits, responseType: definition.response.rawValue, gated: gated,
            inputs: withInputs ? definition.inputs : nil)
    }

    static func catalogue(_ page: CataloguePage) -> DatacoveWire.Page<DatacoveWire.Workflow> {
        DatacoveWire.Page(
            data: page.workflows.map { workflow($0, gated: page.gated.contains($0.id), withInputs: false) },
            meta: .init(page: page.page, pageSize: page.pageSize, total: page.total, totalPages: page.totalPages))
    }

    static func report(_ run: WorkflowRun) -> DatacoveWire.Report {
        DatacoveWire.Report(
            eventId: run.id, workflowId: run.workflowID, status: run.status.rawValue, result: run.status == .succeeded ? run.result : nil,
            error: error(run), creditsCharged: run.credits, creditsRefunded: run.creditsRefunded, createdAt: WireDate.string(run.createdAt),
            startedAt: run.startedAt.map(WireDate.string), finishedAt: run.finishedAt.map(WireDate.string))
    }

    static func history(_ page: RunHistoryPage) -> DatacoveWire.Page<DatacoveWire.Report> {
        DatacoveWire.Page(
            data: page.runs.map(report),
            meta: .init(page: page.page, pageSize: page.pageSize, total: page.total, totalPages: page.totalPages))
    }

    /// A finished `sync` run answers its result; anything else answers the `eventId` to follow.
    static func executed(_ outcome: ExecuteOutcome) -> DatacoveWire.ExecuteResponse {
        let run = outcome.run
        if outcome.response == .sync, run.status.isFinished {
            return DatacoveWire.ExecuteResponse(
                eventId: nil, status: run.status.rawValue, result: run.status == .succeeded ? run.result : nil, error: error(run),
                creditsCharged: run.credits)
        }
        return DatacoveWire.ExecuteResponse(eventId: run.id, status: run.status.rawValue, result: nil, creditsCharged: run.credits)
    }

    static func error(_ run: WorkflowRun) -> DatacoveWire.ReportError? {
        guard run.status == .failed || run.status == .timedOut else { return nil }
        return DatacoveWire.ReportError(code: run.errorCode ?? "FAILED", message: run.errorMessage ?? "The run failed.")
    }
}
