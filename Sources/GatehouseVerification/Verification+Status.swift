extension Verification {
    /// The lifecycle state of a verification; unknown states decode as `.other(raw)`.
    public enum Status: Sendable, Hashable {
        /// Waiting for the code; the only state that still changes.
        case pending
        /// The correct code was reported.
        case verified
        /// Finished without success; see the reason.
        case failed
        /// Passed its expiry while unfinished.
        case expired
        /// Refused at start, so no challenge was sent; see the reason.
        case denied
        /// A state this SDK version does not know, with its raw wire value; treated as non-terminal.
        case other(String)

        init(wireValue: String) {
            switch wireValue {
            case "pending": self = .pending
            case "verified": self = .verified
            case "failed": self = .failed
            case "expired": self = .expired
            case "denied": self = .denied
            default: self = .other(wireValue)
            }
        }

        /// True for verified, failed, expired and denied: the verification can no longer change.
        public var isTerminal: Bool {
            switch self {
            case .verified, .failed, .expired, .denied: return true
            case .pending, .other: return false
            }
        }
    }
}
