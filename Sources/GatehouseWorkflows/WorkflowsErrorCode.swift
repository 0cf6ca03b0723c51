/// An `error.code` of the Datacove workflows API. Open: codes the server adds later still
/// decode, and compare by their spelling.
public struct WorkflowsErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code as the server spells it.
    public let rawValue: String
    /// A code from its raw spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A code from a literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The raw spelling.
    public var description: String { rawValue }

    /// An input value failed its rule; the message names the input.
    public static let validationFailed: WorkflowsErrorCode = "VALIDATION_FAILED"
    /// A file failed its input's fileOptions; show the message as it is (seed 000 §08).
    public static let fileInvalid: WorkflowsErrorCode = "FILE_INVALID"
    /// The wallet is short; `balance` says what it holds.
    public static let insufficientCredits: WorkflowsErrorCode = "INSUFFICIENT_CREDITS"
    /// A gated workflow needs an active trial or plan.
    public static let entitlementInactive: WorkflowsErrorCode = "ENTITLEMENT_INACTIVE"
    /// Execute was sent without `X-App-Version`.
    public static let appVersionRequired: WorkflowsErrorCode = "APP_VERSION_REQUIRED"
    /// An idempotency key came back with a different request.
    public static let idempotencyKeyReused: WorkflowsErrorCode = "IDEMPOTENCY_KEY_REUSED"
    /// No such workflow or report for this user.
    public static let notFound: WorkflowsErrorCode = "NOT_FOUND"
    /// The upload was larger than the server takes.
    public static let payloadTooLarge: WorkflowsErrorCode = "PAYLOAD_TOO_LARGE"
}
