import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseManagedAPIsEngine
import GatehousePossessionEngine

extension GatehouseApp {
    /// The key that seals managed API secrets: the configured one; in development, one made
    /// once beside the SQLite file; in production without one, none (secrets are refused).
    static func managedAPISecrets(_ settings: Settings, logger: Logger) throws -> SecretBox? {
        try secretKey(settings, configured: settings.managedApiSecretKey, setting: "managed-api-secret-key", file: "managed-api-secret.key",
            purpose: "managed API secrets", logger: logger).map { try SecretBox(key: $0) }
    }

    /// The key that seals the stores' secrets (a Google Play service account's key), found the same way.
    static func storeSecrets(_ settings: Settings, logger: Logger) throws -> SecretBox? {
        try secretKey(settings, configured: settings.storeSecretKey, setting: "store-secret-key", file: "store-secret.key",
            purpose: "store secrets", logger: logger).map { try SecretBox(key: $0) }
    }

    /// The key that seals the console operators' TOTP secrets, found the same way.
    public static func consoleSecrets(_ settings: Settings, logger: Logger) throws -> SecretBox? {
        try secretKey(settings, configured: settings.consoleSecretKey, setting: "console-secret-key", file: "console-secret.key",
            purpose: "console operators' second factors", logger: logger).map { try SecretBox(key: $0) }
    }

    /// The possession engine's key, found the same way.
    static func possessionKeys(_ settings: Settings, logger: Logger) throws -> PossessionKeys? {
        try secretKey(settings, configured: settings.possessionSecretKey, setting: "possession-secret-key", file: "possession-secret.key",
            purpose: "possession identity data and authTokens", logger: logger).map { try PossessionKeys(secret: $0) }
    }

    /// A 32-byte key: the configured one (64 hex digits or base64); in development, one made
    /// once in `<data-dir>/<file>` (mode 0600); in production without one, none.
    static func secretKey(_ settings: Settings, configured: String?, setting: String, file: String, purpose: String, logger: Logger) throws -> [UInt8]? {
        if let text = configured {
            guard let key = SecretBox.keyBytes(text: text) else { throw SettingsError("\(setting) must be 64 hex digits or base64 of 32 bytes") }
            return key
        }
        guard settings.mode == .development else { return nil }
        let path = (settings.dataDir as NSString).appendingPathComponent(file)
        if let text = try? String(contentsOfFile: path, encoding: .utf8), let key = SecretBox.keyBytes(text: text) { return key }
        if !FileManager.default.fileExists(atPath: settings.dataDir) { try DataFolder.create(settings.dataDir) }
        let key = SystemRandom().bytes(32)
        // Written whole under another name, then linked into place: link fails when the file
        // exists, so two processes starting at once both end up with the one that got there first.
        let draft = path + ".\(SystemRandom().bytes(8).hexString).tmp"
        guard FileManager.default.createFile(atPath: draft, contents: Data(key.hexString.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw SettingsError("cannot write \(draft)")
        }
        defer { unlink(draft) }
        if link(draft, path) != 0 {
            guard errno == EEXIST, let text = try? String(contentsOfFile: path, encoding: .utf8), let existing = SecretBox.keyBytes(text: text) else {
                throw SettingsError("cannot write \(path)")
            }
            return existing
        }
        DataFolder.restrict([path])
        logger.info(LogValue("made a development key for \(purpose)"), ["path": .plain(path)])
        return key
    }
}
