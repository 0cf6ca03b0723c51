import Foundation
import GatehouseCore
import GatehouseWire
import GatehouseWorkflowsEngine
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a prompt, filled from the run's inputs, to any OpenAI-compatible chat-completions
/// endpoint (OpenAI, a llama.cpp, vLLM or Ollama server): base URL, model and API key come
/// from the tenant's settings and are never answered by any API. `executor.config`:
/// `prompt` (required; `{{key}}` is replaced by that input, a text file by its content),
/// `system`, `model`, `temperature`, `maxTokens`, `json` (ask for and check a JSON object).
struct OpenAIWorkflowExecutor: WorkflowExecutor {
    let kind = "openai"
    let http: any OutboundHTTP
    static let maxFileText = 100_000

    func validate(configuration: [String: JSONValue]) throws(WorkflowError) {
        guard let prompt = configuration["prompt"]?.string, !prompt.isEmpty, prompt.count <= 20_000 else {
            throw WorkflowError(.definitionInvalid, "openai needs executor.config.prompt, 1 to 20000 characters")
        }
        let allowed: Set<String> = ["prompt", "system", "model", "temperature", "maxTokens", "json"]
        if let unknown = configuration.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw WorkflowError(.definitionInvalid, "openai does not take executor.config.\(unknown)")
        }
        if let value = configuration["temperature"], (value.number.map { !(0...2).contains($0) } ?? true) {
            throw WorkflowError(.definitionInvalid, "executor.config.temperature must be a number from 0 to 2")
        }
        if let value = configuration["maxTokens"], (value.int.map { $0 < 1 } ?? true) {
            throw WorkflowError(.definitionInvalid, "executor.config.maxTokens must be a whole number above 0")
        }
        if let value = configuration["json"], value.bool == nil { throw WorkflowError(.definitionInvalid, "executor.config.json must be true or false") }
    }

    func execute(_ run: RunInvocation) async -> ExecutorOutcome {
        let settings = run.tenant
        let config = run.workflow.executor.configuration
        guard let base = settings.openAIBaseURL, let model = config["model"]?.string ?? settings.openAIModel else {
            return .failed(code: "MODEL_NOT_CONFIGURED", message: "The tenant has no OpenAI-compatible endpoint or model configured.")
        }
        let wantsJSON = config["json"]?.bool ?? false
        var messages: [JSONValue] = []
        if let system = config["system"]?.string { messages.append(.object(["role": .string("system"), "content": .string(fill(system, run))])) }
        messages.append(.object(["role": .string("user"), "content": .string(fill(config["prompt"]?.string ?? "", run))]))
        var body: [String: JSONValue] = ["model": .string(model), "messages": .array(messages), "stream": .bool(false)]
        if let temperature = config["temperature"] { body["temperature"] = temperature }
        if let maxTokens = config["maxTokens"] { body["max_tokens"] = maxTokens }
        if wantsJSON { body["response_format"] = .object(["type": .string("json_object")]) }
        let endpoint = base.path.hasSuffix("/v1") || base.path.hasSuffix("/v1/")
            ? base.appendingPathComponent("chat/completions") : base.appendingPathComponent("v1/chat/completions")
        var request = URLRequest(url: endpoint, timeoutInterval: max(1, run.deadline.timeIntervalSinceNow))
        request.httpMethod = "POST"
        request.httpBody = try? JSONEncoder().encode(JSONValue.object(body))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key = settings.openAIAPIKey { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        let data: Data
        let response: HTTPURLResponse
        do { (data, response) = try await http.send(request) } catch {
            return .retry(code: "MODEL_UNREACHABLE", message: "The model endpoint did not answer: \(error.localizedDescription)")
        }
        guard (200..<300).contains(response.statusCode) else {
            let detail = Self.errorMessage(data).map { ": \($0)" } ?? ""
            if response.statusCode == 429 || response.statusCode >= 500 {
                return .retry(code: "MODEL_UNAVAILABLE", message: "The model endpoint answered \(response.statusCode)\(detail)")
            }
            return .failed(code: "MODEL_REFUSED", message: "The model endpoint refused the request (\(response.statusCode))\(detail)")
        }
        return Self.outcome(data, wantsJSON: wantsJSON, model: model)
    }

    /// The report: `{text, model, finishReason, usage}`, with `json` when asked for.
    static func outcome(_ data: Data, wantsJSON: Bool, model: String) -> ExecutorOutcome {
        guard case .object(let answer)? = try? JSONValue(parsing: data, maxDepth: 64),
            let choice = answer["choices"]?.array?.first?.object, let content = choice["message"]?.object?["content"]?.string
        else { return .failed(code: "MODEL_ANSWER_INVALID", message: "The model's answer had no message.") }
        let finish = choice["finish_reason"]?.string ?? "stop"
        if finish == "length" { return .failed(code: "MODEL_TRUNCATED", message: "The model stopped at its token limit.") }
        var report: [String: JSONValue] = [
            "text": .string(content), "model": answer["model"] ?? .string(model), "finishReason": .string(finish),
        ]
        if let usage = answer["usage"] { report["usage"] = usage }
        if wantsJSON {
            guard case .object? = try? JSONValue(parsing: Data(content.utf8), maxDepth: 64) else {
                return .failed(code: "MODEL_ANSWER_INVALID", message: "The model was asked for a JSON object and answered something else.")
            }
            report["json"] = try? JSONValue(parsing: Data(content.utf8), maxDepth: 64)
        }
        return .succeeded(.object(report))
    }

    /// `error.message` of an OpenAI-style error (llama.cpp sends `code` as a number; it is not read).
    static func errorMessage(_ data: Data) -> String? {
        guard case .object(let answer)? = try? JSONValue(parsing: data, maxDepth: 16) else { return nil }
        return (answer["error"]?.object?["message"]?.string ?? answer["error"]?.string).map { String($0.prefix(300)) }
    }

    /// `{{key}}` → the input's value; a text file's content, capped.
    func fill(_ template: String, _ run: RunInvocation) -> String {
        var text = template
        for (key, value) in run.input {
            let rendered: String
            switch value {
            case .string(let string): rendered = string
            case .bool(let flag): rendered = flag ? "true" : "false"
            case .number(let number): rendered = WorkflowInputRulesFormat.number(number)
            default: rendered = (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? ""
            }
            text = text.replacingOccurrences(of: "{{\(key)}}", with: rendered)
        }
        for file in run.files where text.contains("{{\(file.key)}}") {
            let content = file.contentTypes.contains(".txt") ? Self.text(atPath: file.path) : file.filename
            text = text.replacingOccurrences(of: "{{\(file.key)}}", with: content)
        }
        return text
    }
}

extension OpenAIWorkflowExecutor {
    static func text(atPath path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: maxFileText)) ?? Data(), as: UTF8.self)
    }
}

enum WorkflowInputRulesFormat {
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
