import Foundation
import GatehouseCrypto
import GatehouseDelivery
import GatehouseExecutors
import GatehouseHTTP
import GatehouseWire
import GatehouseWorkflowsEngine

/// A worker's callback: signed with the tenant's worker secret over the timestamp and the body
/// (`X-Gatehouse-Timestamp`, `X-Gatehouse-Signature`), as the run was sent to it.
struct WorkerSignatureAuthenticator: Authenticator {
    struct Run: Sendable {
        let runID: String
        let tenantID: String
    }

    /// How far a callback's timestamp may be from the server's clock.
    static let tolerance: TimeInterval = 300
    let engine: WorkflowsEngine
    let credential = Credential.workerSignature.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> Run {
        let runID = context.parameter("runId")
        guard let (tenantID, secret) = try await engine.callbackSecret(runID: runID),
            let timestamp = request.headers["X-Gatehouse-Timestamp"], let sent = Double(timestamp),
            abs(engine.environment.clock.now.timeIntervalSince1970 - sent) <= Self.tolerance, let signature = request.headers["X-Gatehouse-Signature"],
            constantTimeEquals(
                Array(signature.utf8), Array(WebhookDelivery.signature(secret: Array(secret.utf8), timestamp: timestamp, body: request.body).utf8))
        else { throw DatacoveError(status: 401, code: "SIGNATURE_INVALID", message: "The callback's signature is missing, stale or wrong.") }
        return Run(runID: runID, tenantID: tenantID)
    }
}

/// A worker's link to a run's file, which the server signed when it sent the run.
struct SignedFileLinkAuthenticator: Authenticator {
    struct File: Sendable {
        let runID: String
        let tenantID: String
        let index: Int
    }

    let engine: WorkflowsEngine
    let credential = Credential.signedLink.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> File {
        let runID = context.parameter("runId")
        guard let index = Int(context.parameter("index")), let (tenantID, secret) = try await engine.callbackSecret(runID: runID),
            WorkflowFileLinks.verify(
                runID: runID, index: index, expires: request.queryValue("expires"), signature: request.queryValue("signature"), secret: secret,
                now: engine.environment.clock.now)
        else { throw DatacoveError(status: 404, code: "NOT_FOUND", message: "No such file, or the link has expired.") }
        return File(runID: runID, tenantID: tenantID, index: index)
    }
}
