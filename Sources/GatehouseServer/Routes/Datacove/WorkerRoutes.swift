import Foundation
import GatehouseCore
import GatehouseExecutors
import GatehouseDelivery
import GatehouseCrypto
import GatehouseHTTP
import GatehouseWorkflowsEngine

/// What a tenant's webhook worker calls: the run's callback (its answer, signed like the
/// request it was sent) and the signed links to the run's files.
enum WorkerRoutes {
    /// How far a callback's timestamp may be from the server's clock.
    static let tolerance: TimeInterval = 300

    static func register(on router: Router, engine: WorkflowsEngine) {
        let clock = engine.environment.clock
        router.post("/api/workflows/callbacks/v1/:runId", .async { request, context in
            let runID = context.parameter("runId")
            let refused = DatacoveError(status: 401, code: "SIGNATURE_INVALID", message: "The callback's signature is missing, stale or wrong.")
            guard let (tenantID, secret) = try await engine.callbackSecret(runID: runID),
                let timestamp = request.headers["X-Gatehouse-Timestamp"], let sent = Double(timestamp),
                abs(clock.now.timeIntervalSince1970 - sent) <= tolerance, let signature = request.headers["X-Gatehouse-Signature"],
                constantTimeEquals(
                    Array(signature.utf8), Array(WebhookDelivery.signature(secret: Array(secret.utf8), timestamp: timestamp, body: request.body).utf8))
            else { throw refused }
            guard let outcome = WorkerAnswer.outcome(request.body), outcome != .awaitingCallback else {
                throw DatacoveError.validation("The body must be {\"runId\",\"status\":\"succeeded\",\"result\":…} or {\"runId\",\"status\":\"failed\",\"error\":{…}}.")
            }
            // The signature covers the body, and the body names the run: a callback captured for
            // one run cannot be replayed onto another.
            guard WorkerAnswer.runID(request.body) == runID else {
                throw DatacoveError.validation("The body's runId must be the run of this callback URL.")
            }
            let recorded = try await engine.complete(runID: runID, tenantID: tenantID, outcome)
            return try .json(["recorded": recorded])
        })
        router.get("/api/workflows/files/v1/:runId/:index", .async { request, context in
            let runID = context.parameter("runId")
            let notFound = DatacoveError(status: 404, code: "NOT_FOUND", message: "No such file, or the link has expired.")
            guard let index = Int(context.parameter("index")), let (tenantID, secret) = try await engine.callbackSecret(runID: runID),
                WorkflowFileLinks.verify(
                    runID: runID, index: index, expires: request.queryValue("expires"), signature: request.queryValue("signature"),
                    secret: secret, now: clock.now),
                let file = try await engine.runFile(runID: runID, tenantID: tenantID, index: index),
                let handle = FileHandle(forReadingAtPath: file.path)
            else { throw notFound }
            let headers: HTTPHeaders = [
                "Content-Type": "application/octet-stream", "Cache-Control": "no-store",
                "Content-Disposition": "attachment; filename=\"\(file.filename.filter { $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isNewline })\"",
            ]
            return Response(status: 200, headers: headers, body: .stream { writer in
                defer { try? handle.close() }
                while let piece = try handle.read(upToCount: 64 * 1024), !piece.isEmpty { try await writer.write(piece) }
            })
        })
    }
}
