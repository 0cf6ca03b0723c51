import Foundation
import GatehouseCore
import GatehouseCrypto
import Testing
import GatehouseFormats

@Suite struct IdentifierAndLogTests {
    @Test func uuidV7CarriesTimeVersionAndVariantAndSorts() {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_767_225_600.123))
        let ids = UUIDv7Generator(clock: clock, random: SeededRandom(seed: 7))
        var previous = ids.next()
        let bytes = withUnsafeBytes(of: previous.uuid) { Array($0) }
        let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(millis == 1_767_225_600_123)
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        // Same millisecond, and across time: always increasing.
        for step in 0..<5000 {
            if step % 1000 == 0 { clock.advance(by: 0.001) }
            let next = ids.next()
            #expect(next.lowercased > previous.lowercased)
            previous = next
        }
    }

    @Test func sequentialIdsArePredictable() {
        let ids = SequentialIDGenerator()
        #expect(ids.next().lowercased == "00000000-0000-7000-8000-000000000001")
        #expect(ids.next().lowercased == "00000000-0000-7000-8000-000000000002")
    }

    @Test func redactorMasksDigitRunsOfFourToFifteen() {
        #expect(Redactor.redact("call +447700900123 now") == "call «redacted-number» now")
        #expect(Redactor.redact("code 123456 sent") == "code «redacted-code» sent")
        #expect(Redactor.redact("HTTP 200") == "HTTP 200")
        #expect(Redactor.redact("in 2026") == "in «redacted-code»")
        for length in 4...7 { #expect(Redactor.redact(String(repeating: "1", count: length)) == "«redacted-code»") }
        for length in 8...15 { #expect(Redactor.redact(String(repeating: "2", count: length)) == "«redacted-number»") }
        #expect(Redactor.redact(String(repeating: "3", count: 16)) == String(repeating: "3", count: 16))
        let uuid = "0190a6d2-1234-7abc-8def-419283746501"
        #expect(Redactor.redact("id \(uuid) ok") == "id \(uuid) ok")
        #expect(Redactor.redact("\(uuid) 4821") == "\(uuid) «redacted-code»")
        #expect(Redactor.redact("deadbeef12345678") == "deadbeef«redacted-number»")
        #expect(Redactor.redact("/verifications/number/447700900123?x") == "/verifications/number/«redacted-number»?x")
    }

    @Test func loggerRedactsMessagesAndFields() throws {
        let lines = LockedLines()
        let logger = Logger(minimum: .info, clock: ManualClock(), write: { lines.append($0) })
        logger.debug("hidden")
        logger.info("sent 482910 to +15551234567", ["to": "15551234567"])
        #expect(lines.all.count == 1)
        let json = try JSONSerialization.jsonObject(with: Data(lines.all[0].utf8)) as! [String: String]
        #expect(json["message"] == "sent «redacted-code» to «redacted-number»")
        #expect(json["to"] == "«redacted-number»")
        #expect(json["level"] == "info")
    }
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
