import Foundation

/// Where the token pair lives between launches; shared by an app and its extensions when they share a session.
public protocol TokenStore: Sendable {
    /// The stored pair, or `nil` when signed out.
    func read() throws -> TokenPair?
    /// Replaces the stored pair; must be atomic, since a half-written pair signs the user out.
    func write(_ pair: TokenPair) throws
    /// Forgets the stored pair.
    func clear() throws
    /// Runs `body` holding the store's refresh lock, which other processes sharing the store also take.
    ///
    /// A refresh re-reads, calls the server and writes inside it, so two processes never spend the same
    /// refresh token: the second waits, re-reads and finds the rotated pair.
    func withLock<T>(_ body: () async throws -> T) async throws -> T
}

/// Why a token store could not read or write.
public struct TokenStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, for logs.
    public let message: String
    /// The OS status (`errno` or `OSStatus`), when there is one.
    public let status: Int32?
    /// Whether the store is only unavailable for now (a locked device), which never means signed out.
    public let isTemporary: Bool

    /// A store error.
    public init(_ message: String, status: Int32? = nil, isTemporary: Bool = false) {
        self.message = message
        self.status = status
        self.isTemporary = isTemporary
    }

    /// The message with its status.
    public var description: String { status.map { "\(message) (\($0))" } ?? message }
}

extension TokenPair {
    /// The bytes a store keeps.
    func storageData() throws -> Data {
        do {
            return try JSONEncoder().encode(self)
        } catch {
            throw TokenStoreError("cannot encode the token pair: \(error)")
        }
    }

    /// A pair read back from a store; damage is an error, never a silent sign-out.
    static func stored(_ data: Data, in place: String) throws -> TokenPair {
        do {
            return try JSONDecoder().decode(TokenPair.self, from: data)
        } catch {
            throw TokenStoreError("cannot decode \(place): \(error)")
        }
    }
}
