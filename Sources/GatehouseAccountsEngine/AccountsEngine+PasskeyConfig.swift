import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseFormats
import GatehousePublicSuffix

extension AccountsEngine {
    /// The tenant's passkey configuration; nil when it has none.
    public func passkeyConfig(tenantID: String) async throws -> PasskeyConfig? {
        try await database.read { db in try Self.passkeyConfig(db, tenantID: tenantID) }
    }

    /// Sets the tenant's configuration, whole. The rpId is a registrable host name (no scheme,
    /// port or path); each origin `https://` a host at or under it (with a port only on
    /// `localhost`), or an Android `android:apk-key-hash:`; app ids `TEAMID.bundle.id`.
    public func setPasskeyConfig(tenantID: String, _ config: PasskeyConfig) async throws -> PasskeyConfig {
        try Self.validate(config)
        let now = environment.clock.now
        let (origins, apps) = (Self.jsonList(config.origins), Self.jsonList(config.iosAppIDs))
        do {
            return try await database.write { db in
                guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
                try db.execute(
                    """
                    INSERT INTO passkey_configs (tenant_id, rp_id, rp_name, origins, ios_app_ids, enabled, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id) DO UPDATE SET rp_id = excluded.rp_id, rp_name = excluded.rp_name, origins = excluded.origins,
                      ios_app_ids = excluded.ios_app_ids, enabled = excluded.enabled, updated_at = excluded.updated_at
                    """,
                    [.text(tenantID), .text(config.rpID), .text(config.rpName), .text(origins), .text(apps), .boolean(config.enabled), now.sqlValue])
                return try Self.passkeyConfig(db, tenantID: tenantID)!
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            throw PasskeyError.configInvalid("another tenant has the relying party id \(config.rpID)")
        }
    }

    /// The iOS app ids of the enabled relying party `host` names, for `apple-app-site-association`.
    public func associatedApps(host: String) async throws -> [String]? {
        let rpID = host.split(separator: ":").first.map { $0.lowercased() } ?? ""
        return try await database.read { db in
            guard let row = try db.queryOne("SELECT ios_app_ids, enabled FROM passkey_configs WHERE rp_id = ?", rpID),
                try row.get("enabled") as Bool
            else { return nil }
            return Self.list(try row.get("ios_app_ids"))
        }
    }

    static func passkeyConfig(_ db: any DatabaseConnection, tenantID: String) throws -> PasskeyConfig? {
        try db.queryOne("SELECT * FROM passkey_configs WHERE tenant_id = ?", tenantID).map { row in
            PasskeyConfig(
                rpID: try row.get("rp_id"), rpName: try row.get("rp_name"), origins: Self.list(try row.get("origins")),
                iosAppIDs: Self.list(try row.get("ios_app_ids")), enabled: try row.get("enabled"), updatedAt: try row.get("updated_at"))
        }
    }

    static func validate(_ config: PasskeyConfig) throws {
        let host = config.rpID
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...253).contains(host.utf8.count), host == host.lowercased(), labels.allSatisfy({ label in
            (1...63).contains(label.utf8.count) && label.utf8.allSatisfy { Self.isHostByte($0) } && label.first != "-" && label.last != "-"
        }) else { throw PasskeyError.configInvalid("rpId must be a host name such as example.com") }
        // A public suffix alone (`com`, `co.uk`, `github.io`) names no one's site, nor does an address.
        guard host == "localhost" || PublicSuffixList.isUnderRegistrableDomain(host) else {
            throw PasskeyError.configInvalid("rpId must be a registrable domain or a name under one, not a public suffix or an address")
        }
        guard (1...100).contains(config.rpName.count), config.rpName.unicodeScalars.allSatisfy({ !($0.properties.generalCategory == .control) }) else {
            throw PasskeyError.configInvalid("rpName must be 1 to 100 characters without control characters")
        }
        guard (1...20).contains(config.origins.count), config.origins.allSatisfy({ Self.isOrigin($0, rpID: host) }) else {
            throw PasskeyError.configInvalid("origins must be 1 to 20 of https://<rpId or a subdomain> or android:apk-key-hash:<hash>")
        }
        guard config.iosAppIDs.count <= 20, config.iosAppIDs.allSatisfy(Self.isAppID) else {
            throw PasskeyError.configInvalid("iosAppIds must be at most 20 of TEAMID.bundle.id")
        }
    }

    static func isOrigin(_ origin: String, rpID: String) -> Bool {
        if origin.hasPrefix("android:apk-key-hash:") {
            let hash = origin.dropFirst("android:apk-key-hash:".count)
            return (20...100).contains(hash.count) && hash.utf8.allSatisfy { Self.isHostByte($0) || "_+/=".utf8.contains($0) }
        }
        guard let url = URLComponents(string: origin), url.scheme == "https" || (rpID == "localhost" && url.scheme == "http"),
            let host = url.host, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil,
            url.port == nil || host == "localhost", origin == "\(url.scheme!)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        else { return false }
        return host == rpID || host.hasSuffix("." + rpID)
    }

    static func isAppID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", maxSplits: 1)
        return parts.count == 2 && parts[0].count == 10 && parts[0].utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
            && (1...155).contains(parts[1].count) && parts[1].utf8.allSatisfy { Self.isHostByte($0) || $0 == UInt8(ascii: ".") || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
    }

    static func jsonList(_ values: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func list(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
