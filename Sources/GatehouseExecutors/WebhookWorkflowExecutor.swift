import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseWorkflowsEngine
import GatehouseFormats

/// Sends a run to the tenant's own worker as a signed POST, like the delivery webhook:
/// `X-Gatehouse-Signature` is base64(HMAC-SHA256(worker secret, "<timestamp>.<body>")) with
/// `X-Gatehouse-Timestamp`; `X-Gatehouse-Run-Id` stays the same across retries, so the worker
/// can drop a repeat. The worker answers the result at once (200 `{"status":"succeeded",
/// "result":…}` or `{"status":"failed","error":{code,message}}`), or 202 and later POSTs the
/// same with `runId` to the run's `callbackUrl`, signed the same way. 5xx, 429 and timeouts are retried
/// with backoff; any other 4xx fails the run (credits given back) without a retry.
package struct WebhookWorkflowExecutor: WorkflowExecutor {
    package let kind = "webhook"
    package let http: any OutboundHTTP
    package let clock: any Clock
    /// The server's own address as workers reach it, for callbacks and file links.
    package let publicURL: @Sendable () -> URL

    package init(http: any OutboundHTTP, clock: any Clock, publicURL: @escaping @Sendable () -> URL) {
        self.http = http
        self.clock = clock
        self.publicURL = publicURL
    }

    package func validate(configuration: [String: JSONValue]) throws(WorkflowError) {
        for (key, value) in configuration {
            guard key == "path", let path = value.string, path.hasPrefix("/"), !path.contains("..") else {
                throw WorkflowError(.definitionInvalid, .onlySetting(executor: "webhook", setting: "executor.config.path", .workerPath))
            }
        }
    }

    package struct Payload: Encodable {
        struct File: Encodable {
            let input, filename: String
            let size: Int64
            let sha256, url: String
        }
        let runId, workflowId: String
        let attempt: Int
        let input: [String: JSONValue]
        let files: [File]
        let callbackUrl: String
        let deadline: String
    }

    package func execute(_ run: RunInvocation) async -> ExecutorOutcome {
        let settings = run.tenant
        guard var url = settings.workerURL, let secret = settings.workerSecret else {
            return .failed(code: "WORKER_NOT_CONFIGURED", message: "The tenant has no workflow worker configured.")
        }
        if let path = run.workflow.executor.configuration["path"]?.string { url = url.appendingPathComponent(String(path.dropFirst())) }
        let base = publicURL()
        let now = clock.now
        let payload = Payload(
            runId: run.runID, workflowId: run.workflow.id, attempt: run.attempt, input: run.input,
            files: run.files.enumerated().map { index, file in
                .init(input: file.key, filename: file.filename, size: file.size, sha256: file.sha256,
                      url: WorkflowFileLinks.url(base: base, runID: run.runID, index: index, secret: secret, now: now).absoluteString)
            },
            callbackUrl: base.appendingPathComponent("api/workflows/callbacks/v1/\(run.runID)").absoluteString,
            deadline: WireDate.string(run.deadline))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(payload) else { return .failed(code: "EXECUTOR_FAILED", message: "The run could not be encoded.") }
        let timestamp = String(Int64(now.timeIntervalSince1970))
        var request = OutboundRequest(url: url, timeoutInterval: max(1, min(30, run.deadline.timeIntervalSince(now))))
        request.lowSpeedSeconds = request.timeoutInterval
        request.maxResponseBytes = 1 << 20
        request.target = .workflow
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(timestamp, forHTTPHeaderField: "X-Gatehouse-Timestamp")
        request.setValue(WebhookDelivery.signature(secret: Array(secret.utf8), timestamp: timestamp, body: body), forHTTPHeaderField: "X-Gatehouse-Signature")
        request.setValue(run.runID, forHTTPHeaderField: "X-Gatehouse-Run-Id")
        let data: Data
        let response: OutboundResponse
        do { (data, response) = try await http.send(request) } catch let error as OutboundError where error.code == .tooLarge {
            return .failed(code: "WORKER_ANSWER_TOO_LARGE", message: "The worker's answer is larger than 1 MiB.")
        } catch {
            return .retry(code: "WORKER_UNREACHABLE", message: "The worker did not answer: \(error.localizedDescription)")
        }
        switch response.statusCode {
        case 202: return .awaitingCallback
        case 200..<300: return WorkerAnswer.outcome(data) ?? .failed(code: "WORKER_ANSWER_INVALID", message: "The worker's answer was not a result.")
        case 429, 500...599: return .retry(code: "WORKER_UNAVAILABLE", message: "The worker answered \(response.statusCode).")
        default: return .failed(code: "WORKER_REFUSED", message: "The worker refused the run (\(response.statusCode)).")
        }
    }
}

/// A worker's answer, at once or through the callback:
/// `{"status":"succeeded","result":…}`, `{"status":"failed","error":{"code","message"}}`
/// or `{"status":"accepted"}` (the result comes later). A callback also carries `runId`.
package enum WorkerAnswer {
    package static func runID(_ data: Data) -> String? {
        guard case .object(let answer)? = try? JSONValue(parsing: data, maxDepth: 60) else { return nil }
        return answer["runId"]?.string
    }

    package static func outcome(_ data: Data) -> ExecutorOutcome? {
        guard case .object(let answer)? = try? JSONValue(parsing: data, maxDepth: 60) else { return nil }
        switch answer["status"]?.string {
        case "succeeded": return .succeeded(answer["result"] ?? .null)
        case "failed":
            let error = answer["error"]?.object
            return .failed(
                code: String((error?["code"]?.string ?? "WORKER_FAILED").prefix(64)),
                message: String((error?["message"]?.string ?? "The worker reported a failure.").prefix(2000)))
        case "accepted": return .awaitingCallback
        default: return nil
        }
    }
}
