import GatehouseCommerceEngine
import GatehouseWorkflowsEngine

/// How a workflows refusal reads in the dialects' messages.
extension WorkflowError {
    var text: String {
        switch reason {
        case .noSuchWorkflow(let id): "No workflow \(id)."
        case .noSuchReport(let id): "No report \(id)."
        case .field(let field, let rule): rule.sentence(field)
        case .workflowID(.malformed): "id must be 1 to 64 letters, digits, - or _"
        case .workflowID(.reserved(let id)): "id \(id) is reserved"
        case .workflowID(.numberAlone): "id must not be a number alone"
        case .tooManyInputs(let limit): "a workflow takes at most \(limit) inputs"
        case .inputs(let problem): problem.sentence
        case .executorUnknown(let known): "executor.kind must be one of \(known.joined(separator: ", "))"
        case .settingNotTaken(let executor, let setting): "\(executor) does not take \(setting)"
        case .takesNoSettings(let executor, let setting): "\(executor) takes no executor settings (\(setting))"
        case .settingNeeded(let executor, let setting, let length): "\(executor) needs \(setting), \(length.lowerBound) to \(length.upperBound) characters"
        case .onlySetting(let executor, let setting, .inputKey): "\(executor) takes only \(setting), the key of the input holding the address"
        case .onlySetting(let executor, let setting, .workerPath): "\(executor) takes only \(setting), a path under the worker URL starting with /"
        case .input(let problem): problem.sentence
        case .notAnInput(let key): "\(key) is not an input of this workflow"
        case .notAFileInput(let key): "\(key) is not a file input of this workflow"
        case .idempotencyKeyReused: "This Idempotency-Key was used with a different request."
        case .entitlementInactive(trialStarted: true): PurchaseError.entitlementInactiveText
        case .entitlementInactive(trialStarted: false): PurchaseError.noEntitlementText
        case .insufficientCredits(let cost, let balance): "This workflow costs \(cost) credits and the wallet holds \(balance)."
        }
    }
}
