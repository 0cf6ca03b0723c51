import Foundation
import GatehouseClientCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stores the token pair as a JSON file readable only by its owner, with a companion `.lock` file.
///
/// Put the file in an App Group container to share one session between an app and its extensions:
/// writes replace the file atomically, and a refresh holds an `flock` on the lock file.
public struct FileTokenStore: TokenStore {
    /// The JSON file holding the pair.
    public let url: URL
    /// The companion file a refresh locks.
    public var lockURL: URL { url.appendingPathExtension("lock") }
    /// For tests: told each time `withLock` finds the lock held by another store.
    var lockContended: (@Sendable () -> Void)?

    /// A store at `url`; the directory is created on first write.
    public init(url: URL) { self.url = url }

    /// The stored pair; `nil` when the file does not exist, an error when it cannot be read or decoded.
    public func read() throws -> TokenPair? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw TokenStoreError("cannot read \(url.path): \(error)")
        }
        // Never silently "signed out": a damaged file is reported, and the caller decides.
        return try TokenPair.stored(data, in: url.path)
    }

    /// Writes the pair to a 0600 temporary file, syncs it and renames it over the old one.
    public func write(_ pair: TokenPair) throws {
        // Written beside the target, synced and renamed over it: a reader sees the old pair or the
        // new one, never half, and the pair survives a crash right after the server rotated it (or
        // the next refresh is TOKEN_REUSED).
        do { try AtomicFile.write(try pair.storageData(), to: url) } catch let failure as AtomicFile.Failure {
            throw TokenStoreError(failure.message, status: failure.status)
        }
    }

    /// Removes the file; removing a missing file succeeds.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw TokenStoreError("cannot remove \(url.path)", status: errno) }
    }

    /// Runs `body` holding an exclusive `flock` on `lockURL`.
    public func withLock<T>(_ body: () async throws -> T) async throws -> T {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try await FileLock(url: lockURL, contended: lockContended).withLock(body)
    }
}
