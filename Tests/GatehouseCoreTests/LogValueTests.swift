import Foundation
import GatehouseCore
import Testing

/// What the server made itself (request ids, its port) survives the digit masking; what a
/// request or an error carried (numbers, codes) does not.
@Suite struct LogValueTests {
    static func line(_ write: (Logger) -> Void) throws -> [String: String] {
        let lines = LockedLines()
        write(Logger(minimum: .info, clock: ManualClock(), write: { lines.append($0) }))
        return try JSONSerialization.jsonObject(with: Data(try #require(lines.all.first).utf8)) as! [String: String]
    }

    @Test func anErrorLineKeepsItsRequestID() throws {
        let id = "1e27010e-1931"
        let error = "database refused +447700900123 with code 482910"
        let json = try Self.line { $0.error("datacove API error in request \(plain: id): \(error)") }
        #expect(json["message"] == "datacove API error in request 1e27010e-1931: database refused «redacted-number» with code «redacted-code»")
        let fields = try Self.line { $0.error("verification API error", ["requestId": .plain(id), "error": LogValue(error)]) }
        #expect(fields["requestId"] == id)
        #expect(fields["error"] == "database refused «redacted-number» with code «redacted-code»")
    }

    @Test func theStartUpAddressKeepsItsPort() throws {
        let json = try Self.line { $0.info("listening", ["address": .plain("http://0.0.0.0:8080")]) }
        #expect(json["address"] == "http://0.0.0.0:8080")
    }

    @Test func interpolatedValuesAndPlainStringsAreStillMasked() throws {
        let phone = "+15551234567"
        let json = try Self.line { $0.info("sent \(482910) to \(phone) on port \(plain: 8080)", ["to": "\(phone)"]) }
        #expect(json["message"] == "sent «redacted-code» to «redacted-number» on port 8080")
        #expect(json["to"] == "«redacted-number»")
        // The String API masks everything, as before.
        let old = try Self.line { $0.info("request 1e27010e-1931 code 123456") }
        #expect(old["message"] == "request 1e«redacted-code»e-«redacted-code» code «redacted-code»")
        let text = "a 1234"
        #expect((LogValue(text) + .plain(" b 5678")).rendered == "a «redacted-code» b 5678")
        #expect(("\(LogValue(text)) b \(plain: 5678)" as LogValue).rendered == "a «redacted-code» b 5678")
    }
}
