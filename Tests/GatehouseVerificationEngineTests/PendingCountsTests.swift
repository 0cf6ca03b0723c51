import Foundation
import Testing

@testable import GatehouseVerificationEngine

/// What a node holds until a flush has written it: a flush in flight is still counted by the
/// node's reads, a failed one waits for the next, and a written one leaves.
@Suite struct PendingCountsTests {
    static let hour = Date(timeIntervalSince1970: 1_767_225_600)
    static let range = PhoneRange(prefix: "447400", country: "GB", digits: "447400123456")

    func start() -> HeldCounts {
        HeldCounts(
            volume: [("prefix-hourly:a:447400", Self.hour.addingTimeInterval(3600))], conversion: ("a", Self.range, Self.hour),
            recent: ("a", "447400", Self.hour.addingTimeInterval(50)))
    }

    func held(_ counts: PendingCounts) -> (hits: Int, sent: Int, unjudged: Int) {
        let codes = counts.codes(applicationID: "a", prefix: "447400", hoursFrom: Self.hour, bucketsFrom: Self.hour)
        return (counts.hits(of: "prefix-hourly:a:447400"), codes.hours[Self.hour]?.sent ?? 0, codes.recent.sent - codes.recent.verified)
    }

    @Test func aFlushInFlightStillCountsAndAFailedOneWaitsAgain() throws {
        let counts = PendingCounts()
        counts.add(start())
        counts.add(start())
        var verified = HeldCounts(conversion: ("a", Self.range, Self.hour), recent: ("a", "447400", Self.hour.addingTimeInterval(50)))
        verified.codes = .init(sent: 0, verified: 1)
        counts.add(verified)
        #expect(held(counts) == (2, 2, 1))
        let first = try #require(counts.take())
        #expect(first.writes(shard: 9).count == 3)  // one statement per table
        counts.add(start())
        #expect(held(counts) == (3, 3, 2))
        counts.settle(committed: false)
        #expect(held(counts) == (3, 3, 2))
        _ = try #require(counts.take())
        counts.settle(committed: true)
        #expect(held(counts) == (0, 0, 0))
        #expect(counts.take() == nil)
    }

    @Test func aLargeTallyIsWrittenInBoundedStatements() {
        let counts = PendingCounts()
        for index in 0..<1_200 { counts.add(HeldCounts(volume: [("country-daily:a:\(index)", Self.hour)])) }
        let writes = counts.take()?.writes(shard: 9) ?? []
        #expect(writes.map { $0.arguments.count } == [2_000, 2_000, 800])
    }
}
