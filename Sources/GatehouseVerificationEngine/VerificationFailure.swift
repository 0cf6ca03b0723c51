/// A refused verification request: one or more codes (validation reports every failing
/// field together) and, for limits, how many seconds to wait.
public struct VerificationFailure: Error, Equatable, Sendable {
    public let codes: [VerificationErrorCode]
    public let retryAfter: Int?

    public init(_ codes: [VerificationErrorCode], retryAfter: Int? = nil) {
        precondition(!codes.isEmpty, "a failure carries at least one code")
        self.codes = codes
        self.retryAfter = retryAfter
    }

    public init(_ code: VerificationErrorCode, retryAfter: Int? = nil) {
        self.init([code], retryAfter: retryAfter)
    }
}
