import Foundation
import GatehouseManagedAPIsEngine
import GatehouseCore
import GatehousePossessionEngine
import GatehouseVerificationEngine

/// What a development server writes to `<data dir>/dev-credentials.json` on first start (later
/// starts write their own address into it).
public struct DevCredentials: Codable, Sendable, Equatable {
    public let baseURL: String
    public let adminToken: String
    public let tenantId: String
    public let applicationId: String
    public let apiKey: String
    /// The development OTP application (minimum authentication `basic`).
    public let verification: VerificationCredentials?
    /// Sign-in keys by platform (`IOS`, `ANDROID`, `WEB`), sent as `x-api-key`.
    public let apiKeys: [String: String]?
    /// The sandbox tenant's client of the Prove v3 API (`POST /token`).
    public let possession: PossessionCredentials?

    public init(
        baseURL: String, adminToken: String, tenantId: String, applicationId: String, apiKey: String,
        verification: VerificationCredentials? = nil, apiKeys: [String: String]? = nil, possession: PossessionCredentials? = nil
    ) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.tenantId = tenantId
        self.applicationId = applicationId
        self.apiKey = apiKey
        self.verification = verification
        self.apiKeys = apiKeys
        self.possession = possession
    }

    public struct PossessionCredentials: Codable, Sendable, Equatable {
        public let clientId: String
        public let clientSecret: String
    }

    public struct VerificationCredentials: Codable, Sendable, Equatable {
        public let appKey: String
        public let secret: String
    }
}

extension GatehouseApp {
    public var credentialsPath: String { (settings.dataDir as NSString).appendingPathComponent("dev-credentials.json") }

    /// On an empty database in development mode: creates a tenant, an application, an API key
    /// and an admin token, and writes them (mode 0600) for scripts and tests. Later starts
    /// reuse the file, with this start's address; secrets exist only there, the database keeps
    /// their hashes.
    @discardableResult
    public func bootstrapDevelopment() async throws -> DevCredentials? {
        guard settings.mode == .development else { return nil }
        if try await !directory.isEmpty() {
            guard let saved = try? JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: URL(fileURLWithPath: credentialsPath)))
            else { return nil }
            return try await followAddress(saved)
        }
        let tenant = try await directory.createTenant(name: "Development")
        let app = try await directory.createApplication(tenantID: tenant.id, name: "Development app")
        let key = try await directory.issueKey(tenantID: tenant.id, applicationID: app.id, label: "development")
        let admin = try await directory.issueAdminToken(label: "development")
        var otpSettings = OTPApplicationSettings()
        otpSettings.name = "Development verification"
        otpSettings.minimumAuth = .basic
        let (otpApp, otpSecret) = try await verification.createApplication(tenantID: tenant.id, settings: otpSettings)
        var platformKeys: [String: String] = [:]
        for platform in TenantDirectory.platforms.sorted() {
            platformKeys[platform] = try await directory.issueKey(tenantID: tenant.id, label: "\(platform) app", platform: platform).secret
        }
        // Enough credit for a day of development; fees are only billed on success.
        _ = try await verification.adjustBalance(tenantID: tenant.id, byMicros: 100_000_000)
        try await DevelopmentCatalogue.install(workflows, tenantID: tenant.id)
        let baseURL = developmentBaseURL
        // A managed API to try the proxy with and nothing else running: this server's own health.
        if let own = URL(string: baseURL) {
            try await managedAPIs.saveDefinition(tenantID: tenant.id, ManagedAPIDefinition(
                name: "server-health", displayName: "This server's health", baseURL: own, auth: .none, mode: .proxied, development: true,
                metadata: ["purpose": "a first proxied call: gatehouse-cli managed-apis fetch server-health /healthz"]))
        }
        // A sandbox, so a whole possession flow runs in test mode with the test identities.
        try await possession.saveSettings(tenantID: tenant.id, PossessionSettings(environment: .sandbox), carrierSecret: nil)
        try await possession.importIdentities(tenantID: tenant.id, DevelopmentIdentities.records)
        let client = try await possession.issueClient(tenantID: tenant.id, label: "development")
        let credentials = DevCredentials(
            baseURL: baseURL, adminToken: admin, tenantId: tenant.id,
            applicationId: app.id, apiKey: key.secret,
            verification: .init(appKey: otpApp.appKey, secret: otpSecret), apiKeys: platformKeys,
            possession: .init(clientId: client.client.id, clientSecret: client.secret))
        try write(credentials)
        return credentials
    }

    /// Where clients reach this start: `public-url`, else the address it listens on.
    private var developmentBaseURL: String {
        let host = settings.host == "0.0.0.0" || settings.host == "::" ? "127.0.0.1" : settings.host
        return settings.publicURL ?? "http://\(host):\(server.port)"
    }

    /// A later start may listen elsewhere (port 0, another `--port`): the file and the
    /// `server-health` definition follow it, or the CLI and the first proxied call would reach
    /// the first start's port. A definition the developer pointed elsewhere is left alone.
    private func followAddress(_ saved: DevCredentials) async throws -> DevCredentials {
        let baseURL = developmentBaseURL
        guard saved.baseURL != baseURL, let own = URL(string: baseURL) else { return saved }
        if var health = try? await managedAPIs.definition(tenantID: saved.tenantId, name: "server-health"),
            health.development, health.baseURL.absoluteString == saved.baseURL
        {
            health.baseURL = own
            try await managedAPIs.saveDefinition(tenantID: saved.tenantId, health)
        }
        let moved = DevCredentials(
            baseURL: baseURL, adminToken: saved.adminToken, tenantId: saved.tenantId, applicationId: saved.applicationId,
            apiKey: saved.apiKey, verification: saved.verification, apiKeys: saved.apiKeys, possession: saved.possession)
        try write(moved)
        return moved
    }

    private func write(_ credentials: DevCredentials) throws {
        if !FileManager.default.fileExists(atPath: settings.dataDir) { try DataFolder.create(settings.dataDir) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(credentials)
        let created = FileManager.default.createFile(atPath: credentialsPath, contents: data, attributes: [.posixPermissions: 0o600])
        guard created else { throw SettingsError("cannot write \(credentialsPath)") }
        DataFolder.restrict([credentialsPath])
    }
}
