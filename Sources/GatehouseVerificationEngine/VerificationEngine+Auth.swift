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
    /// memory (``RequestRateLimiter``) and the application comes from a short-lived cache.
    /// Only a failure is written, since the failed-auth lock must survive a restart.
    public func authenticate(_ credentials: VerificationRequestCredentials) async throws -> VerificationCaller {
        let now = self.now
        let window = settings.window
        let ip = credentials.clientAddress
        let limiter = environment.rateLimiter
        let (perIP, failedLimit, perAccount) = (settings.perIP, settings.failedAuthPerIP, settings.perAccount)
        let presented = Self.presented(credentials)
        let cache = applicationCache
        let cached = presented.flatMap { cache.cached($0.key, now: now) }
        let generation = cache.currentGeneration
        let (failures, loaded) = try await database.read { db -> ((count: Int, retryAfter: Int), OTPApplication?) in
            let failures = try RateCounter.peek(db, key: "verify:auth-fail:\(ip)", now: now, window: window)
            guard failures.count < failedLimit, cached == nil, let presented else { return (failures, nil) }
            return (failures, try Self.application(db, appKey: presented.key))
        }
        if failures.count >= failedLimit { throw VerificationFailure(.rateLimitFailedAuth, retryAfter: failures.retryAfter) }
        if let loaded { cache.store(loaded, for: loaded.appKey, loadedIn: generation, now: now) }
        let hits = limiter.hit("verify:ip:\(ip)", now: now, window: window)
        if hits.count > perIP { throw VerificationFailure(.rateLimitPerIP, retryAfter: hits.retryAfter) }
        guard let presented, let app = cached ?? loaded, let caller = Self.identify(app, presented, credentials: credentials, now: now) else {
            try await database.write { db in
                _ = try RateCounter.hit(db, key: "verify:auth-fail:\(ip)", now: now, window: window)
            }
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
