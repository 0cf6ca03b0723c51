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
    /// How long a claimed delivery is its dispatcher's: past this lease, a delivery whose
    /// node died mid-way is claimed again (by any node).
    public var dispatchRetryAfter: TimeInterval = 30
    /// The most one send may take before it is given up and the verification fails as
    /// undeliverable. Below the lease, so that no send is still running when its delivery is
    /// claimed again (and sent twice); the rest of the lease is for recording the outcome.
    public var deliveryDeadline: TimeInterval = 20
    /// Claims of one delivery before it counts as undeliverable (`failed_to_deliver`).
    public var deliveryAttempts = 3
    /// How often an idle dispatcher looks for deliveries left by other nodes; a start on
    /// its own node wakes it at once.
    public var deliveryPollInterval: TimeInterval = 2
    /// Deliveries claimed (and handed to the provider concurrently) in one batch.
    public var deliveryBatchSize = 16
    /// When the SMS-pumping guard blocks a prefix on its own.
    public var pumping = PumpingSettings()

    public init() {}
}

/// When a prefix is blocked automatically: its codes of the last hour number at least
/// `minimumVolume`, that is at least `spikeFactor` times its hourly average over the
/// `baselineDays` before, and the share of them verified is below `conversionRatio` times
/// the application's own share over those days (`defaultBaseline` while it has sent fewer
/// than `baselineMinimum` codes). The block lasts `coolOff`.
public struct PumpingSettings: Sendable, Equatable {
    public var minimumVolume = 20
    public var spikeFactor = 3.0
    public var conversionRatio = 0.25
    public var baselineDays = 7
    public var baselineMinimum = 50
    public var defaultBaseline = 0.5
    public var coolOff: TimeInterval = 12 * 3600

    public init() {}
}
