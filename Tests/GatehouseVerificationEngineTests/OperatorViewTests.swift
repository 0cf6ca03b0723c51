import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// What the operators' console reads of the verification engine: traffic per hour and
/// country from the hourly counts, and the log of verifications with its filters and paging.
@Suite struct OperatorViewTests {
    static let noon = Date(timeIntervalSince1970: 1_767_268_800)

    @Test(arguments: TestDatabaseKind.available)
    func activityIsReadPerHourAndCountryAndTheLogFilters(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        harness.clock.set(Self.noon.addingTimeInterval(-2 * 3600 + 60))
        let caller = try await harness.caller { $0.cooldownSeconds = 0; $0.smsFee = "0.05" }
        let (first, code) = try await harness.startAndDeliver("447400123401", caller: caller)
        _ = try await harness.engine.report(.id(first.id), method: "sms", code: code, caller: caller)
        _ = try await harness.startAndDeliver("16502530001", caller: caller)
        harness.clock.set(Self.noon.addingTimeInterval(60))
        _ = try await harness.startAndDeliver("447400123402", caller: caller)
        _ = try await harness.engine.pinPrefixBlock(tenantID: harness.tenantID, applicationID: caller.application.id, prefix: "+33")

        let (hours, countries) = try await harness.engine.activity(tenantID: harness.tenantID, since: Self.noon.addingTimeInterval(-3 * 3600))
        #expect(hours.map(\.start) == (0...3).map { Self.noon.addingTimeInterval(Double($0 - 3) * 3600) })
        #expect(hours.map(\.sent) == [0, 2, 0, 1] && hours.map(\.verified) == [0, 1, 0, 0] && hours.map(\.blocks) == [0, 0, 0, 1])
        #expect(hours[1].estimatedSpendMicros == 100_000)
        #expect(countries == [CountryConversion(country: "GB", sent: 2, verified: 1), CountryConversion(country: "US", sent: 1, verified: 0)])
        // Another tenant's view is empty; all tenants' is this one's.
        #expect(try await harness.engine.activity(tenantID: "another", since: Self.noon.addingTimeInterval(-3 * 3600)).countries.isEmpty)
        #expect(try await harness.engine.activity(tenantID: nil, since: Self.noon.addingTimeInterval(-3 * 3600)).countries.count == 2)

        var filter = VerificationLogFilter()
        filter.tenantID = harness.tenantID
        let all = try await harness.engine.verificationLog(filter)
        #expect(all.map(\.record.destination) == ["447400123402", "16502530001", "447400123401"])
        #expect(all.map(\.country) == ["GB", "US", "GB"] && all.allSatisfy { $0.applicationName == caller.application.name })
        filter.status = .verified
        #expect(try await harness.engine.verificationLog(filter).map(\.record.destination) == ["447400123401"])
        filter.status = .pending
        filter.country = "GB"
        #expect(try await harness.engine.verificationLog(filter).map(\.record.destination) == ["447400123402"])
        // Paging: the page after the newest.
        var page = VerificationLogFilter()
        page.limit = 1
        page.before = (all[0].record.createdAt, all[0].record.id)
        #expect(try await harness.engine.verificationLog(page).map(\.record.destination) == ["16502530001"])
        filter = VerificationLogFilter()
        filter.tenantID = "another"
        #expect(try await harness.engine.verificationLog(filter).isEmpty)
        #expect(try await harness.engine.verification(id: first.id)?.destination == "447400123401")
    }
}
