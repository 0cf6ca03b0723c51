import Foundation
import GatehouseCore
import GatehousePostgres
import GatehouseTesting
import Testing

/// What a sign-in costs on PostgreSQL once warm: the cap's counter, the code and the
/// session's reads (the account's lock, its sessions, the tenant's key) are locked and read
/// together, and the code's verdict and the session's writes travel with COMMIT.
@Suite struct SignInRoundTripTests {
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func aWarmSignInIsTwoRoundTrips() async throws {
        let harness = try await SignInHarness(.postgres, policy: OneTimeCodePolicy())
        defer { harness.close() }
        let postgres = try #require(harness.store.database as? PostgresDatabase)
        // The first sign-in makes the tenant's internal application and token key.
        try await harness.verify(try await harness.requestCode())
        harness.clock.advance(by: 61)
        let code = try await harness.requestCode()
        let before = postgres.roundTrips
        try await harness.verify(code)
        #expect(postgres.roundTrips - before == 2)
    }

    /// The internal application is kept on the node once the transaction that read or made it
    /// commits, however young it is: a sign-in right after the first costs no read of it.
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func theInternalApplicationIsKeptFromItsFirstCommit() async throws {
        var policy = OneTimeCodePolicy()
        policy.resendSeconds = 0
        let harness = try await SignInHarness(.postgres, policy: policy)
        defer { harness.close() }
        let postgres = try #require(harness.store.database as? PostgresDatabase)
        try await harness.verify(try await harness.requestCode())
        let code = try await harness.requestCode()
        let before = postgres.roundTrips
        try await harness.verify(code)
        #expect(postgres.roundTrips - before == 2)
    }
}
