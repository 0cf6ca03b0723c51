#if canImport(Security)
import Foundation
import Security

/// Tokens as generic-password Keychain items, one per `TokenKey` (the SHA-256 of its `id` is the account), readable
/// after first unlock so a background refresh works, and never migrated to another device.
public struct KeychainManagedAPITokenStore: ManagedAPITokenStore {
    /// The items' service attribute.
    public let service: String
    /// The Keychain access group shared with extensions, or nil for the app's default group.
    public let accessGroup: String?

    /// A store for items of `service` in `accessGroup`.
    public init(service: String = "gatehouse.managed-api", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// The record under `key`; nil when there is no item.
    public func tokens(for key: TokenKey) async throws -> StoredTokens? {
        var query = baseQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.failure("read", status) }
        do {
            return try JSONDecoder().decode(StoredTokens.self, from: data)
        } catch {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.TOKEN_STORE_FAILED, "cannot decode the Keychain item: \(error)")
        }
    }

    /// Updates the item under `key`, or adds it when missing.
    public func setTokens(_ tokens: StoredTokens, for key: TokenKey) async throws {
        let data = try JSONEncoder().encode(tokens)
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let status = SecItemUpdate(baseQuery(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecSuccess { return }
        guard status == errSecItemNotFound else { throw Self.failure("update", status) }
        let added = SecItemAdd(baseQuery(key).merging(attributes) { _, new in new } as CFDictionary, nil)
        guard added == errSecSuccess else { throw Self.failure("add", added) }
    }

    /// Deletes the item under `key`; deleting a missing item succeeds.
    public func removeTokens(for key: TokenKey) async throws {
        let status = SecItemDelete(baseQuery(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
    }

    private func baseQuery(_ key: TokenKey) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: Digest.hex(Digest.sha256(Array(key.id.utf8))),
            // The data-protection keychain on macOS too: no legacy-keychain prompts, access groups work.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static func failure(_ operation: String, _ status: OSStatus) -> ManagedAPIException {
        .code(ManagedAPIErrorCodes.TOKEN_STORE_FAILED, "Keychain \(operation) failed (\(status))")
    }
}
#endif
