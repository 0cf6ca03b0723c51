import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

extension Environment {
    /// A deterministic environment for engine tests: a manual clock, seeded randomness,
    /// sequential ids, a silent logger, and outbound HTTP that fails unless a test sets it.
    public static func test(
        database: any Database, clock: ManualClock = ManualClock(), seed: UInt64 = 42,
        http: any OutboundHTTP = UnimplementedOutboundHTTP()
    ) -> Environment {
        Environment(
            clock: clock, random: SeededRandom(seed: seed), ids: SequentialIDGenerator(), database: database,
            logger: .silent, http: http)
    }
}
