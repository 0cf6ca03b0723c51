import Foundation

/// Per-client settings: the request timeout and an optional debug logger.
public struct Configuration: Sendable {
    /// Timeout of each network request in seconds (`URLRequest.timeoutInterval`); default 30.
    public var timeout: TimeInterval
    /// Receives redacted request and response lines; `nil` (the default) disables logging.
    public var logger: (any VerificationLogger)?

    /// Creates a configuration; both values have defaults.
    public init(timeout: TimeInterval = 30, logger: (any VerificationLogger)? = nil) {
        self.timeout = timeout
        self.logger = logger
    }
}
