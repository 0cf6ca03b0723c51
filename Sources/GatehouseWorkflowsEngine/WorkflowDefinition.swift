import Foundation
import GatehouseRules
import GatehouseFormats

/// A workflow a tenant offers: what it asks for, what it costs and who does the work.
public struct WorkflowDefinition: Sendable, Equatable {
    /// How execute answers.
    public enum ResponseKind: String, Sendable, CaseIterable {
        /// Execute waits for the run and answers its result.
        case sync
        /// Execute answers at once with an `eventId` to follow.
        case event
    }

    /// Which executor runs it, and that executor's settings for this workflow.
    public struct Executor: Sendable, Equatable {
        public var kind: String
        public var configuration: [String: JSONValue]
        public init(kind: String, configuration: [String: JSONValue] = [:]) {
            self.kind = kind
            self.configuration = configuration
        }
    }

    /// Like `wf-sec-001`: letters, digits, `-` and `_`.
    public var id: String
    public var name: String
    public var description: String
    public var category: String
    public var featured: Bool
    /// Credits one run costs.
    public var credits: Int
    public var enabled: Bool
    public var response: ResponseKind
    public var executor: Executor
    public var inputs: [WorkflowInput]
    /// How long a run may take, from its first start, before it times out.
    public var timeoutSeconds: Int

    public init(
        id: String, name: String, description: String = "", category: String = "general", featured: Bool = false, credits: Int = 0,
        enabled: Bool = true, response: ResponseKind = .event, executor: Executor, inputs: [WorkflowInput] = [], timeoutSeconds: Int = 600
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.category = category
        self.featured = featured
        self.credits = credits
        self.enabled = enabled
        self.response = response
        self.executor = executor
        self.inputs = inputs
        self.timeoutSeconds = timeoutSeconds
    }

    /// The inputs that take files.
    public var fileInputs: [WorkflowInput] { inputs.filter { $0.type == "file" } }

    /// The bytes one execute's files may take in all.
    public var uploadBytes: Int64 { WorkflowInputRules.uploadBytes(inputs) }
}

extension WorkflowDefinition {
    /// What makes this definition unusable, or `nil`.
    func problem(maxUploadBytes: Int64, maxTimeoutSeconds: Int) -> String? {
        let idOK = !id.isEmpty && id.count <= 64 && id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
        if !idOK { return "id must be 1 to 64 letters, digits, - or _" }
        if ["execute", "reports"].contains(id.lowercased()) { return "id \(id) is reserved" }
        if Int(id) != nil { return "id must not be a number alone" }
        for (field, value, limit) in [("name", name, 200), ("category", category, 64)] where value.trimmingCharacters(in: .whitespaces).isEmpty || value.count > limit {
            return "\(field) must be 1 to \(limit) characters"
        }
        if description.count > 4000 { return "description must be at most 4000 characters" }
        if credits < 0 || credits > 1_000_000 { return "credits must be 0 to 1000000" }
        if timeoutSeconds < 1 || timeoutSeconds > maxTimeoutSeconds { return "timeoutSeconds must be 1 to \(maxTimeoutSeconds)" }
        if inputs.count > 50 { return "a workflow takes at most 50 inputs" }
        return WorkflowInputRules.definitionProblem(inputs, maxUploadBytes: maxUploadBytes)
    }
}
