import Foundation
import GatehouseCrypto
import Testing

struct ConstantTimeTests {
    @Test func equalBytes() {
        #expect(constantTimeEquals([1, 2, 3] as [UInt8], Data([1, 2, 3])))
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        let mac = HMAC.sha256(key: Array("k".utf8), message: Array("m".utf8))
        #expect(constantTimeEquals(mac, Data(mac)))
    }

    @Test func differentContentSameLength() {
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!constantTimeEquals([0x80] as [UInt8], [0x00] as [UInt8]))
    }

    @Test func differentLengths() {
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!constantTimeEquals([1, 2] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!constantTimeEquals([UInt8](), [0] as [UInt8]))
        #expect(!constantTimeEquals([0] as [UInt8], [UInt8]()))
    }
}
