import Foundation
import Testing
@testable import GatehouseWire

/// The arithmetic writer says exactly what ISO8601DateFormatter says.
@Suite struct WireDateTests {
    func reference(_ date: Date, fractional: Bool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        let millis = (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return formatter.string(from: Date(timeIntervalSince1970: fractional ? millis : date.timeIntervalSince1970.rounded(.down)))
    }

    @Test func matchesTheFoundationFormatter() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [TimeInterval] = [0, -0.001, 951_782_400, 951_868_799.999, 1_767_225_600, 4_102_444_800, 253_402_300_799.999, -2_208_988_800]
        let random = (0..<2000).map { _ in TimeInterval(Int64.random(in: -2_208_988_800_000...253_402_300_799_999, using: &generator)) / 1000 }
        for seconds in fixed + random {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(WireDate.string(date) == reference(date, fractional: true), "\(seconds)")
            #expect(WireDate.seconds(date) == reference(date, fractional: false), "\(seconds)")
        }
    }

    @Test func roundTrips() {
        let date = Date(timeIntervalSince1970: 1_767_225_600.25)
        #expect(WireDate.string(date) == "2026-01-01T00:00:00.250Z")
        #expect(WireDate.parse(WireDate.string(date)) == date)
        #expect(WireDate.seconds(date) == "2026-01-01T00:00:00Z")
    }
}
