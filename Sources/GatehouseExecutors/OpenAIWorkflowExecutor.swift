import Foundation
import GatehouseCore
import GatehouseWorkflowsEngine
import GatehouseFormats
import GatehouseRules

/// Sends a prompt, filled from the run's inputs, to any OpenAI-compatible chat-completions
/// endpoint (OpenAI, a llama.cpp, vLLM or Ollama server): base URL, model and API key come
/// from the tenant's settings and are never answered by any API. `executor.config`:
/// `prompt` (required; `{{key}}` is replaced by that input, a text file by its content),
/// `system`, `model`, `temperature`, `maxTokens`, `json` (ask for and check a JSON object).
package struct OpenAIWorkflowExecutor: WorkflowExecutor {
    package let kind = "openai"
    package let http: any OutboundHTTP

    package init(http: any OutboundHTTP) { self.http = http }
    package static let maxFileText = 100_000

    package func validate(configuration: [String: JSONValue]) throws(WorkflowError) {
        guard let prompt = configuration["prompt"]?.string, !prompt.isEmpty, prompt.count <= 20_000 else {
            throw WorkflowError(.definitionInvalid, .settingNeeded(executor: "openai", setting: "executor.config.prompt", length: 1...20_000))
        }
        let allowed: Set<String> = ["prompt", "system", "model", "temperature", "maxTokens", "json"]
        if let unknown = configuration.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw WorkflowError(.definitionInvalid, .settingNotTaken(executor: "openai", setting: "executor.config.\(unknown)"))
        }
        if let value = configuration["temperature"], (value.number.map { !(0...2).contains($0) } ?? true) {
            throw WorkflowError.definition("executor.config.temperature", .number(0...2))
        }
        if let value = configuration["maxTokens"], (value.int.map { $0 < 1 } ?? true) {
            throw WorkflowError.definition("executor.config.maxTokens", .wholeNumberAbove(0))
        }
        if let value = configuration["json"], value.bool == nil { throw WorkflowError.definition("executor.config.json", .boolean) }
    }

    package func execute(_ run: RunInvocation) async -> ExecutorOutcome {
        let settings = run.tenant
        let config = run.workflow.executor.configuration
        guard let base = settings.openAIBaseURL, let model = config["model"]?.string ?? settings.openAIModel else {
            return .failed(code: "MODEL_NOT_CONFIGURED", message: "The tenant has no OpenAI-compatible endpoint or model configured.")
        }
        let wantsJSON = config["json"]?.bool ?? false
        guard let prompt = fill(config["prompt"]?.string ?? "", run), let system = config["system"]?.string.map({ fill($0, run) }) ?? .some(nil)
        else { return .failed(code: "PROMPT_TOO_LONG", message: "The prompt filled from the inputs is longer than \(Self.maxPrompt) bytes.") }
        var messages: [JSONValue] = []
        if let system { messages.append(.object(["role": .string("system"), "content": .string(system)])) }
        messages.append(.object(["role": .string("user"), "content": .string(prompt)]))
        var body: [String: JSONValue] = ["model": .string(model), "messages": .array(messages), "stream": .bool(false)]
        if let temperature = config["temperature"] { body["temperature"] = temperature }
        if let maxTokens = config["maxTokens"] { body["max_tokens"] = maxTokens }
        if wantsJSON { body["response_format"] = .object(["type": .string("json_object")]) }
        let endpoint = base.path.hasSuffix("/v1") || base.path.hasSuffix("/v1/")
            ? base.appendingPathComponent("chat/completions") : base.appendingPathComponent("v1/chat/completions")
        var request = OutboundRequest(url: endpoint, timeoutInterval: max(1, run.deadline.timeIntervalSinceNow))
        // A model may think for a while before its first byte: the run's deadline bounds it.
        request.lowSpeedSeconds = max(1, run.deadline.timeIntervalSinceNow)
        request.maxResponseBytes = Self.maxAnswerBytes
        request.target = .workflow
        request.httpMethod = "POST"
        request.httpBody = try? JSONEncoder().encode(JSONValue.object(body))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key = settings.openAIAPIKey { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        let data: Data
        let response: OutboundResponse
        do { (data, response) = try await http.send(request) } catch let error as OutboundError where error.code == .tooLarge {
            return .failed(code: "MODEL_ANSWER_TOO_LARGE", message: "The model's answer is larger than \(Self.maxAnswerBytes >> 20) MiB.")
        } catch {
            return .retry(code: "MODEL_UNREACHABLE", message: "The model endpoint did not answer: \(error.localizedDescription)")
        }
        // The endpoint's own error text can quote the key or internal details: users see only the status.
        guard (200..<300).contains(response.statusCode) else {
            if response.statusCode == 429 || response.statusCode >= 500 {
                return .retry(code: "MODEL_UNAVAILABLE", message: "The model endpoint answered \(response.statusCode).")
            }
            return .failed(code: "MODEL_REFUSED", message: "The model endpoint refused the request (\(response.statusCode)).")
        }
        return Self.outcome(data, wantsJSON: wantsJSON, model: model)
    }

    /// The report: `{text, model, finishReason, usage}`, with `json` when asked for.
    package static func outcome(_ data: Data, wantsJSON: Bool, model: String) -> ExecutorOutcome {
        guard case .object(let answer)? = try? JSONValue(parsing: data, maxDepth: 60),
            let choice = answer["choices"]?.array?.first?.object, let content = choice["message"]?.object?["content"]?.string
        else { return .failed(code: "MODEL_ANSWER_INVALID", message: "The model's answer had no message.") }
        let finish = choice["finish_reason"]?.string ?? "stop"
        if finish == "length" { return .failed(code: "MODEL_TRUNCATED", message: "The model stopped at its token limit.") }
        var report: [String: JSONValue] = [
            "text": .string(content), "model": answer["model"] ?? .string(model), "finishReason": .string(finish),
        ]
        if let usage = answer["usage"] { report["usage"] = usage }
        if wantsJSON {
            guard case .object? = try? JSONValue(parsing: Data(content.utf8), maxDepth: 60) else {
                return .failed(code: "MODEL_ANSWER_INVALID", message: "The model was asked for a JSON object and answered something else.")
            }
            report["json"] = try? JSONValue(parsing: Data(content.utf8), maxDepth: 60)
        }
        return .succeeded(.object(report))
    }

    /// The largest answer read from the model endpoint; a larger one fails the run.
    package static let maxAnswerBytes = 4 << 20

    /// The longest prompt sent, in bytes; a longer one fails the run.
    package static let maxPrompt = 400_000

    /// `{{key}}` → the input's value, a text file's content (capped), in one pass over the
    /// template: what is copied in is never scanned again, so a value holding `{{…}}` stays text.
    package func fill(_ template: String, _ run: RunInvocation) -> String? {
        var output = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            output += value(of: key, run) ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
            if output.utf8.count > Self.maxPrompt { return nil }
        }
        output += rest
        return output.utf8.count > Self.maxPrompt ? nil : output
    }

    private func value(of key: String, _ run: RunInvocation) -> String? {
        if let file = run.files.first(where: { $0.key == key }) {
            return file.contentTypes.contains(".txt") ? Self.text(atPath: file.path) : file.filename
        }
        switch run.input[key] {
        case .string(let string)?: return string
        case .bool(let flag)?: return flag ? "true" : "false"
        case .number(let number)?: return WorkflowInputRules.format(number.double)
        case nil, .null?: return nil
        case let other?: return (try? String(decoding: JSONEncoder().encode(other), as: UTF8.self)) ?? ""
        }
    }
}

extension OpenAIWorkflowExecutor {
    package static func text(atPath path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: maxFileText)) ?? Data(), as: UTF8.self)
    }
}
