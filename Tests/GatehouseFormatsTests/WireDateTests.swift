import Foundation
import Testing
import GatehouseFormats

/// The hand-written timestamps write exactly what Foundation's formatters wrote before them.
@Suite struct WireDateTests {
    static let dates: [Date] = {
        var generator = SystemRandomNumberGenerator()
        let fixed: [TimeInterval] = [0, 1, -1, 0.0005, 0.9995, 59.9996, 951_782_400, 1_790_933_400.5, 4_102_444_799.999, -2_208_988_800.25]
        return fixed.map(Date.init(timeIntervalSince1970:))
            + (0..<20_000).map { _ in Date(timeIntervalSince1970: Double.random(in: -2e9...4.1e9, using: &generator)) }
    }()

    @Test func millisecondsMatchISO8601DateFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for date in Self.dates { #expect(WireDate.string(date) == formatter.string(from: date), "\(date.timeIntervalSince1970)") }
        #expect(WireDate.string(Date(timeIntervalSince1970: 1_790_933_400.5)) == "2026-10-02T09:30:00.500Z")
    }

    @Test func wholeSecondsMatchTheFormattersTheDialectsUsed() {
        let didww = ISO8601DateFormatter()
        didww.formatOptions = [.withInternetDateTime]
        let subscriptionFlow = DateFormatter()
        subscriptionFlow.locale = Locale(identifier: "en_US_POSIX")
        subscriptionFlow.timeZone = TimeZone(identifier: "UTC")
        subscriptionFlow.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxxxx"
        for date in Self.dates where date.timeIntervalSince1970 >= 0 {
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            #expect(WireDate.seconds(date) == didww.string(from: whole))
            #expect(WireDate.secondsWithOffset(date) == subscriptionFlow.string(from: date), "\(date.timeIntervalSince1970)")
        }
        #expect(WireDate.secondsWithOffset(Date(timeIntervalSince1970: 1_793_696_400)) == "2026-11-03T09:00:00+00:00")
    }

    @Test func parsesWithAndWithoutFractionsAndOffsets() {
        #expect(WireDate.parse("2026-10-02T09:30:00.000Z") == Date(timeIntervalSince1970: 1_790_933_400))
        #expect(WireDate.parse("2026-10-02T09:30:00Z") == Date(timeIntervalSince1970: 1_790_933_400))
        #expect(WireDate.parse("2026-10-02T11:30:00+02:00") == Date(timeIntervalSince1970: 1_790_933_400))
        #expect(WireDate.parse("2026-10-02") == nil && WireDate.parse("soon") == nil)
    }
}
