/// A refusal of the workflows engine, with a code of its own meaning; each dialect maps it to
/// its envelope.
public struct WorkflowError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// No such workflow (or run) for this caller.
        case notFound
        /// A definition contradicts itself; the message says how.
        case definitionInvalid
        /// An input value fails its rule; the message names the input by its label.
        case inputInvalid
        /// A file fails its input's fileOptions; the message names the label and the limits.
        case fileInvalid
        /// The wallet holds fewer credits than a run costs.
        case insufficientCredits(balance: Int)
        /// The workflow is gated and the account has neither trial nor plan.
        case entitlementInactive
        /// An idempotency key came back with a different request.
        case idempotencyKeyReused
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
