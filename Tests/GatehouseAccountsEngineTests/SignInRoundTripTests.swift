import Foundation
import GatehouseCore
import GatehousePostgres
import GatehouseTesting
import Testing

/// What a sign-in costs on PostgreSQL once warm: the cap's counter and the code are locked
/// and read together, the code's verdict and the session's work are sent together, and the
/// session's last statements travel with COMMIT.
@Suite struct SignInRoundTripTests {
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func aWarmSignInIsThreeRoundTrips() async throws {
        let harness = try await SignInHarness(.postgres, policy: OneTimeCodePolicy())
        defer { harness.close() }
        let postgres = try #require(harness.store.database as? PostgresDatabase)
        // The first sign-in makes the tenant's internal application and token key.
        try await harness.verify(try await harness.requestCode())
        // A minute on, the application is old enough to be kept on the node by the next send.
        harness.clock.advance(by: 61)
        let code = try await harness.requestCode()
        let before = postgres.roundTrips
        try await harness.verify(code)
        #expect(postgres.roundTrips - before == 3)
    }
}
