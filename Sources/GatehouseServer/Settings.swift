import Foundation
import GatehouseWorkflowsEngine
import GatehouseAccountsEngine
import GatehouseCore
import GatehouseDelivery
import GatehouseVerificationEngine

/// How the server is configured: environment variables, overridden by `--flags`.
/// Each setting `GATEHOUSE_DATA_DIR` has the flag `--data-dir`; both come from the one row
/// of the setting in `Settings.table`.
public struct Settings: Sendable {
    public enum Mode: String, Sendable { case development, production }

    public var host = "0.0.0.0"
    public var port: UInt16 = 8080
    public var dataDir = "./data"
    /// Empty: SQLite at `<dataDir>/gatehouse.sqlite`; `postgres://…`: PostgreSQL.
    public var databaseURL = ""
    public var mode = Mode.development
    /// An extra admin token accepted besides the issued ones (for automation).
    public var adminToken: String?
    /// Where access lines go: written as `stdout`, `off` or a file path.
    public var accessLog = AccessLogTarget.standardOutput
    public var logLevel = Logger.Level.info
    public var threads = max(2, ProcessInfo.processInfo.activeProcessorCount)
    public var maxBodyBytes = 1 << 20
    public var maxHeaderBytes = 32 * 1024
    public var maxConnections = 4096
    public var connectionTimeout = 30
    public var trustedProxies: [String] = []
    public var shutdownGrace = 10.0
    /// `/metrics` on a listener of its own at `metricsHost:metricsPort` (0 picks a free port);
    /// unset: on the public listener, behind `metricsToken` or in development only.
    public var metricsPort: UInt16?
    public var metricsHost = "127.0.0.1"
    /// A bearer token `/metrics` asks for, wherever it is served.
    public var metricsToken: String?
    /// The operators' console on a listener of its own at `consoleHost:consolePort` (0 picks a
    /// free port). Unset: in development, a free port (none when the public port is 0, as in
    /// tests); in production, no console.
    public var consolePort: UInt16?
    public var consoleHost = "127.0.0.1"
    /// The console's address as operators' browsers reach it (`https://…` behind a TLS proxy):
    /// its origin is the one a form's `Origin` must name, and `https` makes the cookie `Secure`.
    public var consolePublicURL: String?
    /// scrypt's N as a power of two for operators' passwords (r = 8, p = 1): 15 is 32 MiB and
    /// OWASP's minimum; tests lower it, an operator with memory to spare may raise it (10–20).
    public var consolePasswordCost = 15
    /// The address clients use, written to `dev-credentials.json`.
    public var publicURL: String?
    public var databasePoolSize = 16
    /// Where codes go: empty for the development outbox, or a provider bridge URL.
    public var deliveryWebhookURL: String?
    public var deliveryWebhookSecret: String?
    /// Seconds the verification request callback may take.
    public var verificationCallbackTimeout = 5.0
    /// Verification API limits per window (seconds): requests per IP, failed
    /// authentications per IP, requests per account, public starts per account.
    public var verificationRateWindow = 60
    public var verificationRatePerIP = 120
    public var verificationRateFailedAuth = 20
    public var verificationRatePerAccount = 1200
    public var verificationRatePublicPerAccount = 300
    /// Sign-in sessions: days without use, and days in all, before a session ends.
    public var sessionIdleDays = 30
    /// Email delivery; without a host, email goes to the development outbox.
    public var smtpHost: String?
    public var smtpPort: UInt16 = 587
    public var smtpFrom = "no-reply@gatehouse.invalid"
    public var smtpUsername: String?
    public var smtpPassword: String?
    /// Written as `none`, `starttls` or `tls`.
    public var smtpSecurity = SMTPDelivery.Security.startTLS
    public var smtpSubject = "Your sign-in code"
    /// Replaces both App Store Server API hosts (tests, proxies); an absolute http(s) URL.
    public var appstoreApiURL: URL?
    /// Replace Google's hosts (tests, proxies): the Play Developer API, the OAuth token endpoint
    /// of the service account's grant, and the certificates that sign Pub/Sub push tokens.
    public var googlePlayApiURL: URL?
    public var googleTokenURL: URL?
    public var googleCertsURL: URL?
    /// Seals the stores' secrets at rest (a Google Play service account's key): 64 hex digits or
    /// base64 of 32 bytes. Unset in development: a key is made once in
    /// `<dataDir>/store-secret.key`; unset in production: no such secret can be saved.
    public var storeSecretKey: String?
    /// Seals the console operators' TOTP secrets: 64 hex digits or base64 of 32 bytes. Unset in
    /// development: made once in `<dataDir>/console-secret.key`; unset in production: no operator can be created.
    public var consoleSecretKey: String?

    /// The console's port after the defaults: nil when there is no console. In development an
    /// unset port is a free one (the log says which; `make run` asks for 8081), never a guess
    /// next to the public port that another server may hold.
    public var consoleListenerPort: UInt16? {
        if let consolePort { return consolePort }
        guard mode == .development, port != 0 else { return nil }
        return 0
    }

    public var sessionAbsoluteDays = 90
    /// SubscriptionFlow app endpoints: requests per account token per minute.
    public var storeClientRequestsPerMinute = 60
    /// `node`: request rate limits count in each node's memory only (exact on one node);
    /// `cluster`: nodes also settle their counts through the database every
    /// `rateLimitSettleInterval` seconds, so a limit holds for the cluster.
    public var rateLimitSharing = RateLimitSharing.node
    public var rateLimitSettleInterval = 1.0
    /// Where workflow uploads are kept while their runs need them; several nodes must share it.
    public var workflowFilesDir: String?
    /// The most one execute's files may take in all, in MiB.
    public var workflowUploadMaxMb = 50
    /// A tenant's runs in progress at once, unless its workflow settings say otherwise.
    public var workflowConcurrency = 4
    /// Seconds between heartbeats on an idle report stream.
    public var workflowStreamHeartbeat = 15.0
    /// Attempts of a workflow run that a worker asks to retry or a node dies under.
    public var workflowMaxAttempts = 4
    /// Days a run's uploaded files are kept after it ends.
    public var workflowFileRetentionDays = 7.0
    /// Days the report stream can replay a run's changes after they happened.
    public var workflowEventRetentionDays = 7.0
    /// Seals managed API secrets at rest: 64 hex digits or base64 of 32 bytes. Unset in
    /// development: a key is made once in `<dataDir>/managed-api-secret.key`; unset in
    /// production: no secret can be saved.
    public var managedApiSecretKey: String?
    /// Seconds a proxied call may wait for the upstream between bytes.
    public var managedApiTimeout = 30.0
    /// The largest request body the proxy forwards, and the largest answer it passes back (MiB).
    public var managedApiMaxRequestBytes = 1 << 20
    public var managedApiMaxResponseMb = 10
    /// Proxied calls per user and API per minute, counted on each node.
    public var managedApiRatePerMinute = 120
    /// Seals the possession directory's dates of birth and SSNs and signs authTokens: 64 hex
    /// digits or base64 of 32 bytes. Unset in development: a key is made once in
    /// `<dataDir>/possession-secret.key`; unset in production: possession flows are refused.
    public var possessionSecretKey: String?
    /// SMS and voice providers in failover order, comma-separated (`twilio`, `vonage`); unset:
    /// the delivery webhook bridge if set, else the development outbox.
    public var deliveryProviders: String?
    public var twilioAccountSid: String?
    /// Signs Twilio's status callbacks; also the REST credential unless an API key is given.
    public var twilioAuthToken: String?
    /// An API key (`SK…`) and its secret for Twilio's REST API, instead of the auth token.
    public var twilioApiKeySid: String?
    public var twilioApiKeySecret: String?
    /// The sender of SMS and the caller id of calls (a Twilio number, or an alphanumeric sender for SMS).
    public var twilioFrom: String?
    /// Sends SMS through this Messaging Service instead of `twilioFrom`.
    public var twilioMessagingServiceSid: String?
    /// Twilio's API root (tests, regions).
    public var twilioApiURL: URL?
    public var vonageApiKey: String?
    public var vonageApiSecret: String?
    /// The sender of SMS and the caller id of calls (digits, or an alphanumeric sender for SMS).
    public var vonageFrom: String?
    /// Voice calls need a Vonage application and its private key (PEM file).
    public var vonageApplicationId: String?
    public var vonagePrivateKeyFile: String?
    /// Vonage's SMS and Voice API roots (tests).
    public var vonageSmsURL: URL?
    public var vonageVoiceURL: URL?
    /// The account's signature secret: checks signed call events and SMS receipts.
    public var vonageSignatureSecret: String?
    /// How signed SMS receipts' `sig` is made, as chosen in the Vonage dashboard.
    public var vonageSignatureMethod = VonageSMSSignature.Method.md5Hash
    /// Device API calls per client address per minute on this node.
    public var possessionRatePerMinute = 120
    /// The SMS-pumping guard blocks a prefix once its last hour holds this many codes, at least
    /// `pumpingSpikeFactor` times its usual hourly count, verified at under
    /// `pumpingConversionRatio` times the application's usual share; for `pumpingCoolOffHours`.
    public var pumpingMinimumVolume = 20
    public var pumpingSpikeFactor = 3.0
    public var pumpingConversionRatio = 0.25
    public var pumpingCoolOffHours = 12

    public init() {}

    /// Reads `GATEHOUSE_*` variables, then `--flag value` / `--flag=value` arguments.
    /// An unknown flag is an error; an unknown variable is ignored, since other tools
    /// (`gatehouse-cli`, the test suite) read `GATEHOUSE_*` variables of their own.
    public static func load(environment: [String: String], arguments: [String]) throws -> Settings {
        var values: [String: String] = [:]
        for (key, value) in environment where key.hasPrefix("GATEHOUSE_") {
            let name = key.dropFirst("GATEHOUSE_".count).lowercased().replacingOccurrences(of: "_", with: "-")
            if Self.tableByName[name] != nil { values[name] = value }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { throw SettingsError("unexpected argument \(argument)") }
            let flag = argument.dropFirst(2)
            if let equals = flag.firstIndex(of: "=") {
                values[String(flag[..<equals])] = String(flag[flag.index(after: equals)...])
            } else {
                guard index + 1 < arguments.count else { throw SettingsError("--\(flag) needs a value") }
                values[String(flag)] = arguments[index + 1]
                index += 1
            }
            index += 1
        }
        var settings = Settings()
        try settings.apply(values)
        return settings
    }

    private mutating func apply(_ values: [String: String]) throws {
        // Sorted, so that of two bad values the same one is always reported.
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let setting = Self.tableByName[key] else { throw SettingsError("unknown setting --\(key)") }
            try setting.apply(&self, value)
        }
    }

    /// The verification engine's installation-wide settings.
    var verification: VerificationSettings {
        var settings = VerificationSettings()
        settings.callbackTimeout = verificationCallbackTimeout
        settings.window = TimeInterval(verificationRateWindow)
        settings.perIP = verificationRatePerIP
        settings.failedAuthPerIP = verificationRateFailedAuth
        settings.perAccount = verificationRatePerAccount
        settings.publicPerAccount = verificationRatePublicPerAccount
        settings.pumping.minimumVolume = pumpingMinimumVolume
        settings.pumping.spikeFactor = pumpingSpikeFactor
        settings.pumping.conversionRatio = pumpingConversionRatio
        settings.pumping.coolOff = TimeInterval(pumpingCoolOffHours) * 3600
        return settings
    }

    /// Lifetimes of sign-in sessions.
    var sessions: SessionSettings {
        var settings = SessionSettings()
        settings.idleLifetime = TimeInterval(sessionIdleDays) * 86_400
        settings.absoluteLifetime = TimeInterval(sessionAbsoluteDays) * 86_400
        return settings
    }

    /// The workflows engine's settings.
    var workflows: WorkflowSettings {
        let folder = workflowFilesDir ?? (dataDir as NSString).appendingPathComponent("workflow-files")
        var settings = WorkflowSettings(filesDirectory: URL(fileURLWithPath: folder, isDirectory: true))
        settings.maxUploadBytes = Int64(workflowUploadMaxMb) << 20
        settings.defaultConcurrency = workflowConcurrency
        settings.maxAttempts = workflowMaxAttempts
        settings.fileRetention = workflowFileRetentionDays * 86_400
        settings.eventRetention = workflowEventRetentionDays * 86_400
        return settings
    }

    public var isPostgres: Bool { databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") }

    public var sqlitePath: String {
        if databaseURL.hasPrefix("sqlite://") { return String(databaseURL.dropFirst("sqlite://".count)) }
        if !databaseURL.isEmpty { return databaseURL }
        return (dataDir as NSString).appendingPathComponent("gatehouse.sqlite")
    }
}

/// Whether request rate limits are counted per node or settled across the cluster.
public enum RateLimitSharing: Sendable, Equatable {
    case node
    case cluster
}

/// Where the access log goes.
public enum AccessLogTarget: Sendable, Equatable {
    case standardOutput
    case off
    case file(String)
}

/// A setting that could not be understood.
public struct SettingsError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
