import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The parts of a request that authentication reads (§4 and §5 of the wire notes).
public struct VerificationRequestCredentials: Sendable {
    public var authorization: String?
    public var timestamp: String?
    public var method: String
    /// The request-target path exactly as sent, percent-encoding kept, no query.
    public var rawPath: String
    public var body: [UInt8]
    public var contentType: String?
    public var clientAddress: String

    public init(
        authorization: String?, timestamp: String?, method: String, rawPath: String, body: [UInt8], contentType: String?,
        clientAddress: String
    ) {
        self.authorization = authorization
        self.timestamp = timestamp
        self.method = method
        self.rawPath = rawPath
        self.body = body
        self.contentType = contentType
        self.clientAddress = clientAddress
    }
}

/// An authenticated caller: the application and the mode that proved it.
public struct VerificationCaller: Sendable {
    public let application: OTPApplication
    public let mode: AuthMode
}

extension VerificationEngine {
    /// Checks the per-IP limits, then the credentials, then the per-account limit. Every
    /// authentication failure is the same `unauthorized`; too many of them from one address
    /// become `rate_limit_failed_auth`.
    ///
    /// A request that passes writes nothing: the request limits are counted in this node's
    /// memory (``RequestRateLimiter``); the application and the address's failure count come
    /// from short-lived caches (so a hot caller costs no query at all). Only a failure is
    /// written, since the failed-auth lock must survive a restart; a lock another node set
    /// is seen here within the cache's few seconds.
    public func authenticate(_ credentials: VerificationRequestCredentials) async throws -> VerificationCaller {
        let now = self.now
        let window = settings.window
        let ip = credentials.clientAddress
        let limiter = environment.rateLimiter
        let (perIP, failedLimit, perAccount) = (settings.perIP, settings.failedAuthPerIP, settings.perAccount)
        let presented = Self.presented(credentials)
        let failureKey = "verify:auth-fail:\(ip)"
        let start = RateCounter.windowStart(now, window)
        var failures = failedAuthCache.cached(ip, now: now).flatMap { $0.windowStart == start ? $0.count : nil }
        var app = presented.flatMap { applicationCache.cached($0.key, now: now) }
        if failures == nil || (app == nil && presented != nil) {
            let generation = applicationCache.currentGeneration
            let (knownFailures, knownApp) = (failures, app)
            let (read, loaded) = try await database.read { db -> (Int, OTPApplication?) in
                let failures = try knownFailures ?? RateCounter.peek(db, key: failureKey, now: now, window: window).count
                guard failures < failedLimit, knownApp == nil, let presented else { return (failures, knownApp) }
                return (failures, try Self.application(db, appKey: presented.key))
            }
            if knownFailures == nil { failedAuthCache.set(WindowCount(windowStart: start, count: read), for: ip, now: now) }
            if let loaded, knownApp == nil { applicationCache.store(loaded, for: loaded.appKey, loadedIn: generation, now: now) }
            (failures, app) = (read, loaded)
        }
        let retryAfter = RateCounter.retryAfter(now, start: start, window: window)
        if let failures, failures >= failedLimit { throw VerificationFailure(.rateLimitFailedAuth, retryAfter: retryAfter) }
        let hits = limiter.hit("verify:ip:\(ip)", now: now, window: window)
        if hits.count > perIP { throw VerificationFailure(.rateLimitPerIP, retryAfter: hits.retryAfter) }
        guard let presented, let app, let caller = Self.identify(app, presented, credentials: credentials, now: now) else {
            let counted = try await database.write { db in try RateCounter.hit(db, key: failureKey, now: now, window: window).count }
            failedAuthCache.set(WindowCount(windowStart: start, count: counted), for: ip, now: now)
            throw VerificationFailure(.unauthorized)
        }
        let account = limiter.hit("verify:account:\(caller.application.tenantId)", now: now, window: window)
        if account.count > perAccount { throw VerificationFailure(.rateLimitPerAccount, retryAfter: account.retryAfter) }
        return caller
    }

    /// What the `Authorization` header claims, before any lookup.
    struct Presented {
        let key: String
        let mode: AuthMode
        var secret: String?
        var signature: String?
    }

    static func presented(_ credentials: VerificationRequestCredentials) -> Presented? {
        guard let header = credentials.authorization?.trimmingCharacters(in: .whitespaces) else { return nil }
        if header.hasPrefix("Basic ") {
            guard let basic = RequestSigner.parseBasic(header) else { return nil }
            return Presented(key: basic.key, mode: .basic, secret: basic.secret)
        }
        guard let parsed = RequestSigner.parseApplicationHeader(header) else { return nil }
        return Presented(key: parsed.key, mode: parsed.signature == nil ? .public : .application, signature: parsed.signature)
    }

    /// The live application of an app key: its tenant enabled, not one of Gatehouse's own.
    static func application(_ db: any DatabaseConnection, appKey: String) throws -> OTPApplication? {
        try db.queryOne(
            """
            SELECT a.* FROM otp_applications a JOIN tenants t ON t.id = a.tenant_id
            WHERE a.app_key = ? AND t.disabled_at IS NULL AND a.internal_purpose IS NULL
            """, appKey
        ).map(OTPApplication.init(row:))
    }

    /// The caller, when the presented credentials prove `app`.
    static func identify(
        _ app: OTPApplication, _ presented: Presented, credentials: VerificationRequestCredentials, now: Date
    ) -> VerificationCaller? {
        guard presented.mode >= app.minimumAuth else { return nil }
        switch presented.mode {
        case .public:
            break
        case .basic:
            guard let secret = presented.secret,
                constantTimeEquals(SHA256.hash(Data(secret.utf8)), SHA256.hash(Data(app.secret.utf8)))
            else { return nil }
        case .application:
            guard let signature = presented.signature, let timestamp = credentials.timestamp,
                let key = RequestSigner.key(fromSecret: app.secret),
                RequestSigner.verify(
                    signature: signature, key: key, method: credentials.method, body: credentials.body,
                    contentType: credentials.contentType, timestamp: timestamp, path: credentials.rawPath, now: now)
            else { return nil }
        }
        return VerificationCaller(application: app, mode: presented.mode)
    }
}

/// A count in one fixed window.
struct WindowCount: Sendable {
    let windowStart: Int64
    let count: Int
}
