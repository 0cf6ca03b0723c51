import Foundation
import GatehouseCore
import GatehouseExecutors
import GatehouseHTTP
import GatehouseWire
import GatehouseWorkflowsEngine

/// What a tenant's webhook worker calls: the run's callback (its answer, signed like the
/// request it was sent) and the signed links to the run's files.
enum WorkerRoutes {
    static func register(on router: Router, engine: WorkflowsEngine) {
        let endpoints = DatacoveWire.Endpoints.Workflows.self
        router.on(endpoints.workerCallback, WorkerSignatureAuthenticator(engine: engine)) { request, _, run in
            guard let outcome = WorkerAnswer.outcome(request.body), outcome != .awaitingCallback else {
                throw DatacoveError.validation("The body must be {\"runId\",\"status\":\"succeeded\",\"result\":…} or {\"runId\",\"status\":\"failed\",\"error\":{…}}.")
            }
            // The signature covers the body, and the body names the run: a callback captured for
            // one run cannot be replayed onto another.
            guard WorkerAnswer.runID(request.body) == run.runID else {
                throw DatacoveError.validation("The body's runId must be the run of this callback URL.")
            }
            let recorded = try await engine.complete(runID: run.runID, tenantID: run.tenantID, outcome)
            return try .json(["recorded": recorded])
        }
        router.on(endpoints.workerFile, SignedFileLinkAuthenticator(engine: engine)) { _, _, link in
            guard let file = try await engine.runFile(runID: link.runID, tenantID: link.tenantID, index: link.index),
                let handle = FileHandle(forReadingAtPath: file.path)
            else { throw DatacoveError(status: 404, code: "NOT_FOUND", message: "No such file, or the link has expired.") }
            let headers: HTTPHeaders = [
                "Content-Type": "application/octet-stream", "Cache-Control": "no-store",
                "Content-Disposition": "attachment; filename=\"\(file.filename.filter { $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isNewline })\"",
            ]
            return Response(status: 200, headers: headers, body: .stream { writer in
                defer { try? handle.close() }
                while let piece = try handle.read(upToCount: 64 * 1024), !piece.isEmpty { try await writer.write(piece) }
            })
        }
    }
}
