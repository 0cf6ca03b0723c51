import Foundation

/// Installation-wide behaviour of the verification engine. Application settings live on
/// `OTPApplication`; these are the operator's.
public struct VerificationSettings: Sendable, Equatable {
    /// Sent as `sms.interception_timeout`: how long a device should listen for the SMS.
    public var interceptionTimeout = 300
    /// How long the request callback may take before it counts as unusable.
    public var callbackTimeout: TimeInterval = 5
    /// Finished verifications are deleted this long after they finish.
    public var retention: TimeInterval = 24 * 3600
    /// Fixed-window limits. Requests per address and per account, and public starts, count in
    /// the node's memory (`RequestRateLimiter`); failed authentications per address stay in
    /// the database, since that lock must survive a restart.
    public var window: TimeInterval = 60
    public var perIP = 120
    public var failedAuthPerIP = 20
    public var perAccount = 1200
    public var publicPerAccount = 300
    /// A dispatch claimed this long ago without finishing is retried by the sweeper.
    public var dispatchRetryAfter: TimeInterval = 30

    public init() {}
}
