import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

/// What a caller presented to prove it may use an application, as its dialect read it
/// from the request: the engine sees no header, path or body.
public struct VerificationCredential: Sendable, Equatable {
    /// How the caller proves the application.
    public enum Proof: Sendable, Equatable {
        /// The app key alone (public mode).
        case none
        /// The application secret itself (basic mode).
        case secret(String)
        /// A signature of `message`, made with the key the secret decodes to, and the
        /// timestamp the message carries (signed application mode).
        case signature(String, message: [UInt8], timestamp: String)
    }

    public let appKey: String
    public let proof: Proof

    public init(appKey: String, proof: Proof) {
        self.appKey = appKey
        self.proof = proof
    }

    /// The mode the proof stands for.
    var mode: AuthMode {
        switch proof {
        case .none: .public
        case .secret: .basic
        case .signature: .application
        }
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
    /// `credential` is nil when the request presented none the dialect could read.
    public func authenticate(_ credential: VerificationCredential?, clientAddress ip: String) async throws -> VerificationCaller {
        let now = self.now
        let window = settings.window
        let limiter = environment.rateLimiter
        let (perIP, failedLimit, perAccount) = (settings.perIP, settings.failedAuthPerIP, settings.perAccount)
        let presented = credential
        let failureKey = "verify:auth-fail:\(ip)"
        let start = RateCounter.windowStart(now, window)
        var failures = failedAuthCache.cached(ip, now: now).flatMap { $0.windowStart == start ? $0.count : nil }
        var app = presented.flatMap { applicationCache.cached($0.appKey, now: now) }
        if failures == nil || (app == nil && presented != nil) {
            let generation = applicationCache.currentGeneration
            let (knownFailures, knownApp) = (failures, app)
            let (read, loaded) = try await database.read { db -> (Int, OTPApplication?) in
                let failures = try knownFailures ?? RateCounter.peek(db, key: failureKey, now: now, window: window).count
                guard failures < failedLimit, knownApp == nil, let presented else { return (failures, knownApp) }
                return (failures, try Self.application(db, appKey: presented.appKey))
            }
            if knownFailures == nil { failedAuthCache.set(WindowCount(windowStart: start, count: read), for: ip, now: now) }
            if let loaded, knownApp == nil { applicationCache.store(loaded, for: loaded.appKey, loadedIn: generation, now: now) }
            (failures, app) = (read, loaded)
        }
        let retryAfter = RateCounter.retryAfter(now, start: start, window: window)
        if let failures, failures >= failedLimit { throw VerificationFailure(.rateLimitFailedAuth, retryAfter: retryAfter) }
        let hits = limiter.hit("verify:ip:\(ip)", now: now, window: window)
        if hits.count > perIP { throw VerificationFailure(.rateLimitPerIP, retryAfter: hits.retryAfter) }
        guard let presented, let app, let caller = Self.identify(app, presented, now: now) else {
            let counted = try await database.write { db in try RateCounter.hit(db, key: failureKey, now: now, window: window).count }
            failedAuthCache.set(WindowCount(windowStart: start, count: counted), for: ip, now: now)
            throw VerificationFailure(.unauthorized)
        }
        let account = limiter.hit("verify:account:\(caller.application.tenantId)", now: now, window: window)
        if account.count > perAccount { throw VerificationFailure(.rateLimitPerAccount, retryAfter: account.retryAfter) }
        return caller
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

    /// The caller, when the presented credential proves `app`: the secret compared in
    /// constant time, a signature checked against the key the secret decodes to and its
    /// timestamp within the window of the server clock.
    static func identify(_ app: OTPApplication, _ credential: VerificationCredential, now: Date) -> VerificationCaller? {
        guard credential.mode >= app.minimumAuth else { return nil }
        switch credential.proof {
        case .none:
            break
        case .secret(let secret):
            guard constantTimeEquals(SHA256.hash(Data(secret.utf8)), app.secretDigest) else { return nil }
        case .signature(let signature, let message, let timestamp):
            guard RequestSigner.isFresh(timestamp: timestamp, now: now), let key = app.signingKey,
                constantTimeEquals(Array(Base64.encode(HMAC.sha256(key: key, message: message)).utf8), Array(signature.utf8))
            else { return nil }
        }
        return VerificationCaller(application: app, mode: credential.mode)
    }
}

/// A count in one fixed window.
struct WindowCount: Sendable {
    let windowStart: Int64
    let count: Int
}
