#if canImport(Security)
import Foundation
import GatehouseClientCore
import Security

/// Stores the token pair as one generic-password Keychain item, shareable through an access group.
///
/// The app and every extension must pass the same `service` (not their differing bundle ids) and `accessGroup`.
/// Pass `lockFile` in the App Group container to serialise refreshes across those processes.
public struct KeychainTokenStore: TokenStore {
    /// The item's service attribute; identical in every process sharing the session.
    public let service: String
    /// The item's account attribute.
    public let account: String
    /// The Keychain access group shared with extensions, or `nil` for the app's default group.
    public let accessGroup: String?
    private let lock: FileLock?
    private let localLock = AsyncMutex()

    /// A store for the item (`service`, `account`) in `accessGroup`, locking `lockFile` around refreshes when given.
    public init(service: String, account: String = "gatehouse.tokens", accessGroup: String? = nil, lockFile: URL? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        lock = lockFile.map { FileLock(url: $0) }
    }

    /// The stored pair; `nil` when there is no item, an error when the Keychain cannot be read.
    public func read() throws -> TokenPair? {
        var query = baseQuery()
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.error("read", status) }
        return try TokenPair.stored(data, in: "the Keychain item")
    }

    /// Updates the item, or adds it when missing.
    public func write(_ pair: TokenPair) throws {
        let data = try pair.storageData()
        // After first unlock: background refreshes and extensions must read it while the device is locked.
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        let status = SecItemUpdate(baseQuery() as CFDictionary, attributes as CFDictionary)
        if status == errSecSuccess { return }
        guard status == errSecItemNotFound else { throw Self.error("update", status) }
        let added = SecItemAdd(baseQuery().merging(attributes) { _, new in new } as CFDictionary, nil)
        guard added == errSecSuccess else { throw Self.error("add", added) }
    }

    /// Deletes the item; deleting a missing item succeeds.
    public func clear() throws {
        let status = SecItemDelete(baseQuery() as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.error("delete", status) }
    }

    /// Runs `body` holding the lock file when one was given.
    public func withLock<T>(_ body: () async throws -> T) async throws -> T {
        // Without a lock file, at least refreshes through this store value never overlap inside one process.
        guard let lock else { return try await localLock.withLock(body) }
        return try await lock.withLock(body)
    }

    private func baseQuery() -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            // The data-protection keychain on macOS too: no legacy-keychain password prompts, access groups work.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// A locked device (-25308) or a missing entitlement (-34018) is "unavailable for now", never "signed out".
    private static func error(_ operation: String, _ status: OSStatus) -> TokenStoreError {
        let temporary = status == errSecInteractionNotAllowed || status == -34018
        return TokenStoreError("Keychain \(operation) failed", status: status, isTemporary: temporary)
    }
}
#endif
