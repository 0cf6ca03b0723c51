import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseWorkflowsEngine
import GatehouseFormats

/// Built in: checks a web address — its syntax and scheme, that its host resolves to
/// public addresses only, and how a `HEAD` request with a short timeout answers. The
/// address comes from the input named in `executor.config.input` (default `url`).
package struct URLCheckExecutor: WorkflowExecutor {
    package let kind = "url-check"
    package let http: any OutboundHTTP
    /// Development only: lets the check reach loopback and private addresses.
    package let allowPrivateTargets: Bool

    package init(http: any OutboundHTTP, allowPrivateTargets: Bool) {
        self.http = http
        self.allowPrivateTargets = allowPrivateTargets
    }

    package func validate(configuration: [String: JSONValue]) throws(WorkflowError) {
        for (key, value) in configuration {
            guard key == "input", value.string?.isEmpty == false else {
                throw WorkflowError(.definitionInvalid, .onlySetting(executor: "url-check", setting: "executor.config.input", .inputKey))
            }
        }
    }

    package func execute(_ run: RunInvocation) async -> ExecutorOutcome {
        let key = run.workflow.executor.configuration["input"]?.string ?? "url"
        guard let text = run.input[key]?.string else {
            return .failed(code: "INPUT_MISSING", message: "url-check needs the input \(key).")
        }
        var report: [String: JSONValue] = ["url": .string(text)]
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return .succeeded(.object(report.merging(["valid": .bool(false), "problem": .string("not a web address")]) { $1 }))
        }
        report["scheme"] = .string(scheme)
        report["host"] = .string(host)
        guard scheme == "http" || scheme == "https" else {
            return .succeeded(.object(report.merging(["valid": .bool(false), "problem": .string("the scheme must be http or https")]) { $1 }))
        }
        let addresses: [String]
        do {
            addresses = try await OutboundTarget.vet(url, allowPrivate: allowPrivateTargets)
        } catch {
            return .succeeded(.object(report.merging(["valid": .bool(false), "problem": .string("\(error)")]) { $1 }))
        }
        report["valid"] = .bool(true)
        report["addresses"] = .array(addresses.map(JSONValue.string))
        // Five seconds in all, connect included; only the vetted kind of address is connected to.
        var request = OutboundRequest(url: url, timeoutInterval: 5)
        request.connectTimeout = 5
        request.lowSpeedSeconds = 5
        request.target = .workflow
        request.destinations = allowPrivateTargets ? .any : .publicOnly
        request.httpMethod = "HEAD"
        do {
            let (_, response) = try await http.send(request)
            report["reachable"] = .bool(true)
            report["status"] = .number(Double(response.statusCode))
        } catch {
            report["reachable"] = .bool(false)
            report["problem"] = .string("no answer to HEAD: \(error.localizedDescription)")
        }
        return .succeeded(.object(report))
    }
}
