import Foundation

/// The workflows engine's limits and timings.
public struct WorkflowSettings: Sendable {
    /// Where uploaded files are kept while their runs need them. Several nodes on one
    /// PostgreSQL need this on storage they all mount, since any node may run a run.
    public var filesDirectory: URL
    /// The most one execute's files may take in all; a definition whose file inputs could
    /// take more is refused when saved.
    public var maxUploadBytes: Int64 = 50 << 20
    /// Files are removed this long after their run finished.
    public var fileRetention: TimeInterval = 7 * 86_400
    /// A run's claim lasts this long and is renewed while the executor works; a node that
    /// dies leaves its runs to others once it lapses.
    public var leaseSeconds: TimeInterval = 30
    /// Attempts of a run an executor asked to retry, or a node died under.
    public var maxAttempts = 4
    /// Runs of one tenant in progress at once, unless the tenant's settings say otherwise.
    public var defaultConcurrency = 4
    /// The longest `timeoutSeconds` a definition may have.
    public var maxTimeoutSeconds = 3600
    /// How long an idempotency key answers with its first run.
    public var idempotencyRetention: TimeInterval = 86_400
    /// How long the event log keeps what the report stream may replay.
    public var eventRetention: TimeInterval = 7 * 86_400
    /// How often an idle runner looks for runs other nodes queued.
    public var pollInterval: TimeInterval = 1
    /// The longest a `sync` execute holds its request for the run's result; after it, the
    /// answer is the `eventId` (below the SDK's 30 s request timeout).
    public var syncWait: TimeInterval = 25
    /// Runs claimed at once.
    public var batchSize = 8
    /// Runs one node works on at once, over all tenants; it claims no more until one ends.
    public var maxRunsPerNode = 32

    public init(filesDirectory: URL) {
        self.filesDirectory = filesDirectory
    }

    /// Where the transport streams uploads before execute checks them and moves them to their run.
    public var uploadsDirectory: URL { filesDirectory.appendingPathComponent(".uploads", isDirectory: true) }

    /// Seconds before retry `attempt` (1-based) of a run: 2, 8, 32, … with ±10 % jitter applied by the caller.
    func backoff(afterAttempt attempt: Int) -> TimeInterval {
        pow(4, Double(min(attempt, 6))) / 2
    }
}
