import Foundation
import GatehouseWire
import GatehouseFormats
import GatehouseRules

/// The form of one workflow, built from its inputs: values and files by input key, checked
/// by the same rules and in the same words as the server (`WorkflowInputRules`), so the app
/// can show a problem before sending. The server still checks everything, files' content too.
public struct WorkflowForm: Sendable, Equatable {
    /// The workflow the form runs.
    public let workflow: DatacoveWire.Workflow
    /// Non-file values by input key.
    public var values: [String: JSONValue] = [:]
    /// Files by input key, sent from disk without reading them into memory.
    public var files: [String: [URL]] = [:]

    /// An empty form for `workflow` (fetched with its inputs).
    public init(workflow: DatacoveWire.Workflow) {
        self.workflow = workflow
    }

    /// The inputs to render, in order.
    public var inputs: [DatacoveWire.WorkflowInput] { workflow.inputs ?? [] }

    /// Sets a non-file value; `nil` clears it.
    public mutating func set(_ key: String, _ value: JSONValue?) { values[key] = value }

    /// Sets the files of a file input; an empty list clears it.
    public mutating func setFiles(_ key: String, _ urls: [URL]) { files[key] = urls.isEmpty ? nil : urls }

    /// The problem with one input as it stands, or `nil`.
    public func problem(for key: String) -> String? {
        guard let input = inputs.first(where: { $0.key == key }) else { return nil }
        if input.type == "file" {
            let submitted = (files[key] ?? []).map { url in
                WorkflowInputRules.SubmittedFile(filename: url.lastPathComponent, size: Self.size(of: url))
            }
            return WorkflowInputRules.fileProblem(input, files: submitted)?.sentence
        }
        return WorkflowInputRules.problem(input, value: values[key])?.sentence
    }

    /// Every input's problem, by key; empty when the form may be sent.
    public func problems() -> [String: String] {
        var problems: [String: String] = [:]
        for input in inputs { if let problem = problem(for: input.key) { problems[input.key] = problem } }
        return problems
    }

    static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
