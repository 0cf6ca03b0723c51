import GatehouseCrypto
import GatehouseDatabase

/// Everything that varies between production and tests, passed to engines at `init`.
public struct Environment: Sendable {
    public var clock: any Clock
    public var random: any RandomSource
    public var ids: any IDGenerator
    public var database: any Database
    public var logger: Logger
    public var http: any OutboundHTTP
    /// This node's request rate limits (per address, account, token), kept in memory.
    public var rateLimiter: RequestRateLimiter
    /// This node's cache invalidations; a PostgreSQL listener feeds it the other nodes'.
    public var invalidations: CacheInvalidations

    public init(
        clock: any Clock, random: any RandomSource, ids: any IDGenerator, database: any Database,
        logger: Logger, http: any OutboundHTTP, rateLimiter: RequestRateLimiter = RequestRateLimiter(),
        invalidations: CacheInvalidations = CacheInvalidations()
    ) {
        self.clock = clock
        self.random = random
        self.ids = ids
        self.database = database
        self.logger = logger
        self.http = http
        self.rateLimiter = rateLimiter
        self.invalidations = invalidations
    }

    /// The production environment over a database, calling out through `http`.
    public static func live(database: any Database, logger: Logger, http: any OutboundHTTP) -> Environment {
        let clock = SystemClock()
        let random = SystemRandom()
        return Environment(
            clock: clock, random: random, ids: UUIDv7Generator(clock: clock, random: random), database: database,
            logger: logger, http: http)
    }
}
