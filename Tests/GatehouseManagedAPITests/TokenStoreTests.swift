import Foundation
import Testing
@testable import GatehouseManagedAPI

/// The file store: records by key, owner-only permissions, no lost writes between two stores on one directory.
@Suite struct TokenStoreTests {
    @Test func recordsAreKeptByKeyAndRemoved() async throws {
        let store = FileManagedAPITokenStore(directory: try temporaryDirectory())
        let other = TokenKey(apiName: "spotify", tokenEndpoint: "https://t", clientId: "other", scopes: ["b", "a"])
        try await store.setTokens(StoredTokens(accessToken: "a1", refreshToken: "r1"), for: Fixture.spotifyKey)
        try await store.setTokens(StoredTokens(accessToken: "b1"), for: other)
        #expect(try await store.tokens(for: Fixture.spotifyKey)?.refreshToken == "r1")
        #expect(try await store.tokens(for: TokenKey(apiName: "spotify", tokenEndpoint: "https://t", clientId: "other", scopes: ["a", "b", "a"]))?.accessToken == "b1")
        try await store.removeTokens(for: Fixture.spotifyKey)
        #expect(try await store.tokens(for: Fixture.spotifyKey) == nil)
        #expect(try await store.tokens(for: other) != nil)
        try await store.removeTokens(for: Fixture.spotifyKey)
    }

    @Test func theFileIsReadableByItsOwnerOnly() async throws {
        let store = FileManagedAPITokenStore(directory: try temporaryDirectory())
        try await store.setTokens(StoredTokens(accessToken: "a1"), for: Fixture.spotifyKey)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func twoStoresOnOneDirectoryLoseNoWrites() async throws {
        let directory = try temporaryDirectory()
        let first = FileManagedAPITokenStore(directory: directory)
        let second = FileManagedAPITokenStore(directory: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.setTokens(StoredTokens(accessToken: "t\(index)"), for: TokenKey(apiName: "api\(index)")) }
            }
            try await group.waitForAll()
        }
        for index in 0..<40 { #expect(try await first.tokens(for: TokenKey(apiName: "api\(index)"))?.accessToken == "t\(index)") }
    }

    @Test func aDamagedFileIsAnErrorNotAnEmptyStore() async throws {
        let store = FileManagedAPITokenStore(directory: try temporaryDirectory())
        try FileManager.default.createDirectory(at: store.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{".utf8).write(to: store.url)
        let error = await exception { try await store.tokens(for: Fixture.spotifyKey) as Any }
        #expect(error?.errorCode == ManagedAPIErrorCodes.TOKEN_STORE_FAILED)
    }

    @Test func freshnessHonoursTheLeeway() {
        let tokens = StoredTokens(accessToken: "a", expiresAt: start.addingTimeInterval(100))
        #expect(tokens.isFresh(at: start) && tokens.isFresh(at: start.addingTimeInterval(39)))
        #expect(!tokens.isFresh(at: start.addingTimeInterval(40)) && StoredTokens(accessToken: "a").isFresh(at: .distantFuture))
    }
}
