import Foundation
import Testing

@testable import GatehouseVerificationEngine

/// The periods a start is counted in are the UTC hour, day and month a calendar gives.
@Suite struct VolumePeriodsTests {
    @Test func periodsAndTheirEndsAreTheCalendarsUTCOnes() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let moments = [1_790_933_400.25, 1_798_761_599.9, 1_798_761_600, 1_709_164_800 - 0.5, 951_868_799, 0] + (0..<500).map { _ in
            Double.random(in: 0...4_000_000_000)
        }
        for seconds in moments {
            let now = Date(timeIntervalSince1970: seconds)
            let periods = VolumePeriods(now)
            let parts = calendar.dateComponents([.year, .month, .day, .hour], from: now)
            let hourStart = calendar.date(from: parts)!
            let dayStart = calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day))!
            let monthStart = calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: 1))!
            #expect(periods.hour == String(format: "%04d%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!), "\(seconds)")
            #expect(periods.day == String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!), "\(seconds)")
            #expect(periods.month == String(format: "%04d%02d", parts.year!, parts.month!), "\(seconds)")
            #expect(periods.hourEnd == calendar.date(byAdding: .hour, value: 1, to: hourStart)!, "\(seconds)")
            #expect(periods.dayEnd == calendar.date(byAdding: .day, value: 1, to: dayStart)!, "\(seconds)")
            #expect(periods.monthEnd == calendar.date(byAdding: .month, value: 1, to: monthStart)!, "\(seconds)")
            #expect(VolumePeriods.end(ofPeriod: periods.day) == periods.dayEnd && VolumePeriods.end(ofPeriod: periods.month) == periods.monthEnd)
        }
    }
}
