import Foundation
import GatehouseFormats
import Testing

/// `CivilTime` agrees with Foundation's UTC Gregorian calendar, before and after 1970, across
/// leap days, month, year and century ends.
@Suite struct CivilTimeTests {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static let moments: [Int64] = {
        var generator = SystemRandomNumberGenerator()
        let edges: [Int64] = [
            0, -1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_399, 4_107_542_400, -2_208_988_800,
            1_790_933_400, 1_798_761_599, 1_798_761_600, 253_402_300_799,
        ]
        return edges + (0..<2000).map { _ in Int64.random(in: -5_000_000_000...10_000_000_000, using: &generator) }
    }()

    @Test func dateAndTimeOfDayMatchTheCalendar() {
        for seconds in Self.moments {
            let date = Date(timeIntervalSince1970: Double(seconds))
            let parts = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let time = CivilTime(secondsSince1970: seconds)
            #expect(
                [time.year, time.month, time.day, time.hour, time.secondOfDay % 3600]
                    == [parts.year, parts.month, parts.day, parts.hour, parts.minute! * 60 + parts.second!].map { Int64($0!) },
                "\(seconds)")
        }
    }

    @Test func daysOfADateInvertTheDate() {
        for seconds in Self.moments {
            let time = CivilTime(secondsSince1970: seconds)
            #expect(CivilTime.days(year: time.year, month: time.month, day: time.day) == time.daysSince1970, "\(seconds)")
            let start = Self.calendar.date(from: DateComponents(year: Int(time.year), month: Int(time.month), day: 1))!
            let next = Self.calendar.date(byAdding: .month, value: 1, to: start)!
            #expect(time.nextMonthDays * 86_400 == Int64(next.timeIntervalSince1970), "\(seconds)")
        }
    }
}
