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
    /// Checks the per-IP limits, then the credentials. Every authentication failure is the
    /// same `unauthorized`; too many of them from one address become `rate_limit_failed_auth`.
    public func authenticate(_ credentials: VerificationRequestCredentials) async throws -> VerificationCaller {
        let now = self.now
        let window = settings.window
        let ip = credentials.clientAddress
        let (perIP, failedLimit) = (settings.perIP, settings.failedAuthPerIP)
        try await database.write { db in
            let failures = try RateCounter.peek(db, key: "verify:auth-fail:\(ip)", now: now, window: window)
            if failures.count >= failedLimit { throw VerificationFailure(.rateLimitFailedAuth, retryAfter: failures.retryAfter) }
            let hits = try RateCounter.hit(db, key: "verify:ip:\(ip)", now: now, window: window)
            if hits.count > perIP { throw VerificationFailure(.rateLimitPerIP, retryAfter: hits.retryAfter) }
        }
        guard let caller = try await identify(credentials, now: now) else {
            try await database.write { db in
                _ = try RateCounter.hit(db, key: "verify:auth-fail:\(ip)", now: now, window: window)
            }
            throw VerificationFailure(.unauthorized)
        }
        let tenant = caller.application.tenantId
        let perAccount = settings.perAccount
        try await database.write { db in
            let hits = try RateCounter.hit(db, key: "verify:account:\(tenant)", now: now, window: window)
            if hits.count > perAccount { throw VerificationFailure(.rateLimitPerAccount, retryAfter: hits.retryAfter) }
        }
        return caller
    }

    private func identify(_ credentials: VerificationRequestCredentials, now: Date) async throws -> VerificationCaller? {
        guard let header = credentials.authorization?.trimmingCharacters(in: .whitespaces) else { return nil }
        let key: String
        let mode: AuthMode
        var presentedSecret: String?
        var signature: String?
        if header.hasPrefix("Basic ") {
            guard let basic = RequestSigner.parseBasic(header) else { return nil }
            (key, mode, presentedSecret) = (basic.key, .basic, basic.secret)
        } else if let parsed = RequestSigner.parseApplicationHeader(header) {
            key = parsed.key
            signature = parsed.signature
            mode = signature == nil ? .public : .application
        } else {
            return nil
        }
        let found = try await database.read { db in
            try db.queryOne(
                """
                SELECT a.* FROM otp_applications a JOIN tenants t ON t.id = a.tenant_id
                WHERE a.app_key = ? AND t.disabled_at IS NULL
                """, key
            ).map(OTPApplication.init(row:))
        }
        guard let app = found, mode >= app.minimumAuth else { return nil }
        switch mode {
        case .public:
            return VerificationCaller(application: app, mode: mode)
        case .basic:
            guard let presentedSecret, constantTimeEquals(SHA256.hash(Data(presentedSecret.utf8)), SHA256.hash(Data(app.secret.utf8)))
            else { return nil }
            return VerificationCaller(application: app, mode: mode)
        case .application:
            guard let signature, let timestamp = credentials.timestamp, let secretKey = RequestSigner.key(fromSecret: app.secret),
                RequestSigner.verify(
                    signature: signature, key: secretKey, method: credentials.method, body: credentials.body,
                    contentType: credentials.contentType, timestamp: timestamp, path: credentials.rawPath, now: now)
            else { return nil }
            return VerificationCaller(application: app, mode: mode)
        }
    }
}
