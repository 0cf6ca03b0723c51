import Foundation
import GatehouseCore
import GatehouseDatabase

/// The operator's view of a tenant's possession settings.
extension PossessionEngine {
    /// The tenant's settings (the production default when none were saved).
    public func settings(tenantID: String) async throws -> PossessionSettings {
        try await database.read { db in try Self.settings(db, tenantID: tenantID).settings }
    }

    /// Saves the tenant's settings. `carrierSecret` replaces the stored client secret of the
    /// carrier; `nil` keeps it while the carrier's client stays the same.
    public func saveSettings(tenantID: String, _ settings: PossessionSettings, carrierSecret: String?) async throws {
        if let carrier = settings.carrier {
            try Self.vet(carrier)
            guard !carrier.development || allowsDevelopmentCarriers else {
                throw PossessionError.invalid("carrier.development", .developmentOnly)
            }
        }
        if carrierSecret != nil || settings.carrier != nil { _ = try requireKeys() }
        let keys = self.keys
        let now = self.now
        try await database.write { db in
            // The kept secret is the one of the settings this save replaces, not of an older read.
            try db.takeTurn("possession-settings:" + tenantID)
            let stored = try Self.settings(db, tenantID: tenantID)
            var sealed: String?
            if let carrierSecret, let carrier = settings.carrier {
                guard !carrierSecret.isEmpty, carrierSecret.count <= 512 else { throw PossessionError.invalid("carrierSecret", .length(1...512)) }
                sealed = keys?.box.seal(carrierSecret, context: Self.carrierContext(tenantID, carrier))
            } else if let carrier = settings.carrier, stored.settings.carrier?.sameClient(as: carrier) == true {
                sealed = stored.sealedSecret
            } else if settings.carrier != nil {
                throw PossessionError.missing("carrierSecret")
            }
            try db.execute(
                """
                INSERT INTO possession_settings (tenant_id, environment, return_full_ssn, carrier, sealed_carrier_secret, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id) DO UPDATE SET environment = excluded.environment, return_full_ssn = excluded.return_full_ssn,
                  carrier = excluded.carrier, sealed_carrier_secret = excluded.sealed_carrier_secret, updated_at = excluded.updated_at
                """, tenantID, settings.environment.rawValue, settings.returnFullSsn, try StoredJSON.encode(settings.carrier), sealed, now)
        }
    }

    struct StoredSettings {
        var settings: PossessionSettings
        var sealedSecret: String?
    }

    static func settings(_ db: any DatabaseConnection, tenantID: String) throws -> StoredSettings {
        guard let row = try db.queryOne("SELECT * FROM possession_settings WHERE tenant_id = ?", tenantID) else {
            return StoredSettings(settings: PossessionSettings(), sealedSecret: nil)
        }
        let environment = PossessionSettings.Environment(rawValue: try row.get("environment")) ?? .production
        let carrier = try StoredJSON.decode(try row.get("carrier")) as CamaraSettings?
        return StoredSettings(
            settings: PossessionSettings(environment: environment, returnFullSsn: try row.get("return_full_ssn"), carrier: carrier),
            sealedSecret: try row.get("sealed_carrier_secret"))
    }

    /// The carrier's client secret, opened.
    func carrierSecret(_ stored: StoredSettings, tenantID: String) -> String? {
        guard let carrier = stored.settings.carrier, let sealed = stored.sealedSecret else { return nil }
        return keys?.box.open(sealed, context: Self.carrierContext(tenantID, carrier))
    }

    static func carrierContext(_ tenantID: String, _ carrier: CamaraSettings) -> String {
        "possession-carrier\n\(tenantID)\n\(carrier.tokenEndpoint.absoluteString)\n\(carrier.clientId)"
    }

    static func vet(_ carrier: CamaraSettings) throws {
        for (field, url) in [
            ("authorizationEndpoint", carrier.authorizationEndpoint), ("tokenEndpoint", carrier.tokenEndpoint), ("apiBase", carrier.apiBase),
            ("redirectUri", carrier.redirectUri),
        ] {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || (carrier.development && scheme == "http"), url.host?.isEmpty == false,
                url.query == nil, url.fragment == nil
            else { throw PossessionError.invalid(field, .carrierEndpoint) }
        }
        guard (1...200).contains(carrier.clientId.count), carrier.clientId.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f })
        else { throw PossessionError.invalid("clientId", .printableASCII(1...200)) }
    }
}

extension CamaraSettings {
    func sameClient(as other: CamaraSettings) -> Bool { tokenEndpoint == other.tokenEndpoint && clientId == other.clientId }
}

extension PossessionEngine {
    /// Whether a carrier client secret is stored (it is never read back).
    public func hasCarrierSecret(tenantID: String) async throws -> Bool {
        try await database.read { db in try Self.settings(db, tenantID: tenantID).sealedSecret != nil }
    }
}
