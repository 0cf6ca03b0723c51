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
    func problem(maxUploadBytes: Int64, maxTimeoutSeconds: Int) -> WorkflowError.Reason? {
        let idOK = !id.isEmpty && id.count <= 64 && id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
        if !idOK { return .workflowID(.malformed) }
        if ["execute", "reports"].contains(id.lowercased()) { return .workflowID(.reserved(id)) }
        if Int(id) != nil { return .workflowID(.numberAlone) }
        for (field, value, limit) in [("name", name, 200), ("category", category, 64)] where value.trimmingCharacters(in: .whitespaces).isEmpty || value.count > limit {
            return .field(field, .length(1...limit))
        }
        if description.count > 4000 { return .field("description", .length(0...4000)) }
        if credits < 0 || credits > 1_000_000 { return .field("credits", .range(0...1_000_000)) }
        if timeoutSeconds < 1 || timeoutSeconds > maxTimeoutSeconds { return .field("timeoutSeconds", .range(1...maxTimeoutSeconds)) }
        if inputs.count > 50 { return .tooManyInputs(limit: 50) }
        return WorkflowInputRules.definitionProblem(inputs, maxUploadBytes: maxUploadBytes).map(WorkflowError.Reason.inputs)
    }
}
