import GatehouseCore
import GatehouseRules

/// A refusal of the workflows engine, with a code of its own meaning that each dialect maps to
/// its envelope. It carries no text: `reason` says what was refused, as data, and the dialects
/// word it (`WorkflowError+Text.swift` in the server).
public struct WorkflowError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// No such workflow (or report) for this caller.
        case notFound
        /// A definition (or the tenant's settings) contradicts itself.
        case definitionInvalid
        /// An input value or a request parameter fails its rule.
        case inputInvalid
        /// A file fails its input's fileOptions, or is sent for no file input.
        case fileInvalid
        /// The wallet holds fewer credits than a run costs.
        case insufficientCredits(balance: Int)
        /// The workflow is gated and the account has neither trial nor plan.
        case entitlementInactive
        /// An idempotency key came back with a different request.
        case idempotencyKeyReused
    }

    /// What was refused.
    public enum Reason: Equatable, Sendable {
        case noSuchWorkflow(String)
        case noSuchReport(String)
        /// A field (of a definition, the settings, an executor's config, a query) breaks its rule.
        case field(String, FieldRule)
        /// A definition's id breaks the id rule (letters, digits, - and _; not reserved; not a number).
        case workflowID(IDRule)
        case tooManyInputs(limit: Int)
        /// The definition's inputs contradict themselves.
        case inputs(WorkflowInputsProblem)
        case executorUnknown(known: [String])
        /// The executor takes no such setting.
        case settingNotTaken(executor: String, setting: String)
        /// The executor takes no settings at all, and was given `setting`.
        case takesNoSettings(executor: String, setting: String)
        /// The executor needs `setting`, text of a length in `length`, and it is missing or not that.
        case settingNeeded(executor: String, setting: String, length: ClosedRange<Int>)
        /// The executor takes `setting` alone, as `rule` says, and was given something else.
        case onlySetting(executor: String, setting: String, SettingRule)
        /// A value or the files sent for an input break its rules.
        case input(WorkflowInputProblem)
        case notAnInput(String)
        case notAFileInput(String)
        case idempotencyKeyReused
        /// A plan gates the workflow; `trialStarted` says whether the account's trial ran out or never began.
        case entitlementInactive(trialStarted: Bool)
        case insufficientCredits(cost: Int, balance: Int)
    }

    public enum IDRule: Equatable, Sendable {
        case malformed
        case reserved(String)
        case numberAlone
    }

    /// What an executor's own setting must be.
    public enum SettingRule: Equatable, Sendable {
        /// The key of the input holding the address to check.
        case inputKey
        /// A path under the worker URL starting with `/`.
        case workerPath
    }

    public let code: Code
    public let reason: Reason

    public init(_ code: Code, _ reason: Reason) {
        self.code = code
        self.reason = reason
    }

    /// A field of a definition or the settings breaks its rule.
    public static func definition(_ field: String, _ rule: FieldRule) -> WorkflowError { WorkflowError(.definitionInvalid, .field(field, rule)) }

    public var description: String { "\(code): \(reason)" }
}
