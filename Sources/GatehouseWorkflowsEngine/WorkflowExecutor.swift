import Foundation
import GatehouseFormats

/// Does the work of a run. One implementation per executor kind (`webhook`, `openai`, the
/// built-in ones), chosen by a definition's `executor.kind`; they live in GatehouseServer,
/// where outbound HTTP and processes are.
public protocol WorkflowExecutor: Sendable {
    /// The `executor.kind` this implements.
    var kind: String { get }
    /// Refuses a configuration that could not work, when the definition is saved.
    func validate(configuration: [String: JSONValue]) throws(WorkflowError)
    /// Runs one attempt. Cancelled when the run's deadline passes.
    func execute(_ run: RunInvocation) async -> ExecutorOutcome
}

/// One attempt of a run, as an executor sees it.
public struct RunInvocation: Sendable {
    public let runID: String
    public let tenantID: String
    public let accountID: String
    public let workflow: WorkflowDefinition
    public let input: [String: JSONValue]
    public let files: [RunFile]
    /// 1 for the first attempt.
    public let attempt: Int
    public let deadline: Date
    /// The tenant's executor settings (worker, model endpoint) as they stood at the claim.
    public let tenant: WorkflowTenantSettings
}

/// What an attempt came to.
public enum ExecutorOutcome: Sendable, Equatable {
    /// The report.
    case succeeded(JSONValue)
    /// Failed for good: no retry, credits given back.
    case failed(code: String, message: String)
    /// Failed for now (a 5xx, a timeout): tried again after a backoff while attempts remain.
    case retry(code: String, message: String)
    /// Accepted by a worker that answers later through the run's callback.
    case awaitingCallback
}

/// A file sent with a run, kept until its retention ends.
public struct RunFile: Codable, Sendable, Equatable {
    /// The input it was sent for.
    public let key: String
    public let filename: String
    /// Where it is stored.
    public let path: String
    public let size: Int64
    /// Lower-case hex SHA-256 of its content.
    public let sha256: String
    /// Extensions its content was recognised as (`.pdf`, `.docx`, …).
    public let contentTypes: [String]

    public init(key: String, filename: String, path: String, size: Int64, sha256: String, contentTypes: [String]) {
        self.key = key
        self.filename = filename
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.contentTypes = contentTypes
    }
}
