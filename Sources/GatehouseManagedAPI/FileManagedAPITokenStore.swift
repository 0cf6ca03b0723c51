import Foundation
import GatehouseClientCore

/// Tokens in one JSON file readable only by its owner (`managed-api-tokens.json` in `directory`), for Linux,
/// command-line tools and tests. Each change re-reads and rewrites the file under an `flock`, so two
/// processes sharing the directory never lose each other's writes.
public struct FileManagedAPITokenStore: ManagedAPITokenStore {
    /// The JSON file holding every record.
    public let url: URL
    /// The companion file each change locks.
    public var lockURL: URL { url.appendingPathExtension("lock") }

    /// A store in `directory`, created on first write.
    public init(directory: URL) {
        url = directory.appendingPathComponent("managed-api-tokens.json")
    }

    /// The record under `key`; a damaged file is an error, never a silent "no tokens".
    public func tokens(for key: TokenKey) async throws -> StoredTokens? {
        try readAll()[key.id]
    }

    /// Replaces the record under `key`, keeping every other record.
    public func setTokens(_ tokens: StoredTokens, for key: TokenKey) async throws {
        try await change { $0[key.id] = tokens }
    }

    /// Forgets the record under `key`.
    public func removeTokens(for key: TokenKey) async throws {
        try await change { $0[key.id] = nil }
    }

    private func change(_ edit: (inout [String: StoredTokens]) -> Void) async throws {
        try await Self.storing {
            try await AtomicFile.withLock(lockURL) {
                var records = try readAll()
                edit(&records)
                try AtomicFile.write(try Self.encoder.encode(records), to: url)
            }
        }
    }

    private func readAll() throws -> [String: StoredTokens] {
        guard let data = try Self.storing({ try AtomicFile.read(url) }) else { return [:] }
        do {
            return try JSONDecoder().decode([String: StoredTokens].self, from: data)
        } catch {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.TOKEN_STORE_FAILED, "cannot decode \(url.path): \(error)")
        }
    }

    /// A file failure as this module's `TOKEN_STORE_FAILED`.
    static func storing<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let failure as AtomicFile.Failure {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.TOKEN_STORE_FAILED, failure.description)
        }
    }

    static func storing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as AtomicFile.Failure {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.TOKEN_STORE_FAILED, failure.description)
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
