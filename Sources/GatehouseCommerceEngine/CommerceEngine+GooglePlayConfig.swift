import Foundation
import GatehouseCore
import GatehouseDatabase

/// Each tenant's Google Play connection (the store setup of the second store): the app's
/// package, the service account the server calls Google as, and what a push from the
/// tenant's Pub/Sub subscription must carry.
extension CommerceEngine {
    /// Saves Google Play settings. A service account key is checked (a service account's JSON
    /// key file whose RSA key signs) and kept sealed under the tenant; only its email and the
    /// fingerprint of its public half are ever shown.
    public func updateGooglePlayConfig(tenantID: String, _ patch: GooglePlayConfigPatch) async throws -> GooglePlayConfig {
        if let name = patch.packageName, !GooglePlayConfig.isPackageName(name) {
            throw CommerceError(.validationFailed, .googlePlay(.packageName))
        }
        let sealed = try patch.serviceAccountKey.map { try sealServiceAccountKey($0, tenantID: tenantID) }
        if case .some(.some(let audience)) = patch.pushAudience,
           !(1...2048).contains(audience.utf8.count) || !audience.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            throw CommerceError.invalid("pushAudience", .printableASCII(1...2048))
        }
        if case .some(.some(let email)) = patch.pushServiceAccountEmail, !ServiceAccountKey.isServiceAccountEmail(email) {
            throw CommerceError.invalid("pushServiceAccountEmail", .emailAddress)
        }
        let now = environment.clock.now
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            try db.execute(
                "INSERT INTO commerce_google_play_configs (tenant_id, production, updated_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id) DO NOTHING",
                [.text(tenantID), .boolean(true), now.sqlValue])
            // Held until commit: concurrent patches of different fields each see the other's save.
            guard var config = try Self.googlePlayConfig(
                db.queryOne("SELECT * FROM commerce_google_play_configs WHERE tenant_id = ?" + db.dialect.forUpdate, tenantID))
            else { throw CommerceError.notFound(.googlePlayConfiguration) }
            config.packageName = patch.packageName ?? config.packageName
            if let audience = patch.pushAudience { config.pushAudience = audience }
            if let email = patch.pushServiceAccountEmail { config.pushServiceAccountEmail = email }
            config.production = patch.production ?? config.production
            try db.execute(
                """
                UPDATE commerce_google_play_configs SET package_name = ?, push_audience = ?, push_service_account_email = ?, production = ?,
                  service_account_key = COALESCE(?, service_account_key), client_email = COALESCE(?, client_email),
                  key_fingerprint = COALESCE(?, key_fingerprint), updated_at = ?
                WHERE tenant_id = ?
                """,
                [config.packageName.sqlValue, config.pushAudience.sqlValue, config.pushServiceAccountEmail.sqlValue, .boolean(config.production),
                 (sealed?.key).sqlValue, (sealed?.email).sqlValue, (sealed?.fingerprint).sqlValue, now.sqlValue,
                 .text(tenantID)])
            return try Self.googlePlayConfig(db.queryOne("SELECT * FROM commerce_google_play_configs WHERE tenant_id = ?", tenantID))!
        }
    }

    /// A key file checked and sealed under the tenant, with what is kept of it in the clear.
    private func sealServiceAccountKey(_ text: String, tenantID: String) throws -> (key: String, email: String, fingerprint: String) {
        guard let (key, fingerprint) = ServiceAccountKey.parse(text) else {
            throw CommerceError(.validationFailed, .googlePlay(.serviceAccountKey))
        }
        guard let secrets else { throw CommerceError(.secretKeyMissing, .noSealingKey) }
        let json = String(decoding: try JSONEncoder().encode(key), as: UTF8.self)
        return (secrets.seal(json, context: Self.serviceAccountSealContext(tenantID)), key.clientEmail, fingerprint)
    }

    /// The tenant's Google Play settings; nil when none were ever saved.
    public func googlePlayConfig(tenantID: String) async throws -> GooglePlayConfig? {
        try await database.read { db in
            try Self.googlePlayConfig(db.queryOne("SELECT * FROM commerce_google_play_configs WHERE tenant_id = ?", tenantID))
        }
    }

    /// The service account key saved for the tenant, opened; nil when none is saved or it
    /// does not open under this server's key (a key changed since it was sealed).
    func serviceAccountKey(_ db: any DatabaseConnection, tenantID: String) throws -> ServiceAccountKey? {
        guard let secrets,
              let sealed: String = try db.queryOne(
                "SELECT service_account_key FROM commerce_google_play_configs WHERE tenant_id = ?", tenantID)?.get("service_account_key"),
              let json = secrets.open(sealed, context: Self.serviceAccountSealContext(tenantID))
        else { return nil }
        return try? JSONDecoder().decode(ServiceAccountKey.self, from: Data(json.utf8))
    }

    /// Binds a sealed key to its tenant's row, so a value copied to another tenant does not open.
    static func serviceAccountSealContext(_ tenantID: String) -> String { "google-play-service-account\n" + tenantID }

    static func googlePlayConfig(_ row: Row?) throws -> GooglePlayConfig? {
        guard let row else { return nil }
        return GooglePlayConfig(
            packageName: try row.get("package_name"), clientEmail: try row.get("client_email"), keyFingerprint: try row.get("key_fingerprint"),
            pushAudience: try row.get("push_audience"), pushServiceAccountEmail: try row.get("push_service_account_email"),
            production: try row.get("production"))
    }
}
