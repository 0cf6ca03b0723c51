import Foundation
import GatehouseCrypto
import Testing

/// One RFC 4231 case; named briefly so test output does not dump the key bytes.
struct HMACCase: Sendable, CustomTestStringConvertible {
    let name: String
    let key: [UInt8]
    let data: [UInt8]
    let expected: String

    init(_ name: String, _ key: [UInt8], _ data: [UInt8], _ expected: String) {
        (self.name, self.key, self.data, self.expected) = (name, key, data, expected)
    }

    var testDescription: String { "RFC 4231 case \(name)" }
}

/// RFC 4231 §4.2–4.8: every HMAC-SHA-256 test case (case 5 is compared truncated to 128 bits).
struct HMACTests {
    static let largeKey = [UInt8](repeating: 0xaa, count: 131)

    static let cases: [HMACCase] = [
        HMACCase("1", [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        HMACCase("2", Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        HMACCase("3", [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        HMACCase("4", Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        HMACCase("5 (truncated to 128 bits)", [UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
            "a3b6167473100ee06e0c796c2955552b"),
        HMACCase("6", largeKey, Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        HMACCase("7", largeKey, Array(("This is a test using a larger than block-size key and a larger than block-size "
                + "data. The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: cases)
    func rfc4231SHA256(testCase: HMACCase) {
        let mac = HMAC.sha256(key: testCase.key, message: testCase.data)
        #expect(mac.count == 32, "case \(testCase.name)")
        let expectedLength = testCase.expected.count / 2
        #expect(mac.prefix(expectedLength).hexString == testCase.expected, "case \(testCase.name)")
    }

    @Test func rfc4231Case2SHA512() {
        let mac = HMAC.sha512(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(mac.hexString == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
    }

    @Test func emptyKeyAndMessage() {
        // Empty buffers must still reach OpenSSL as valid pointers.
        #expect(HMAC.sha256(key: [UInt8](), message: Data()).hexString
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func dataAndArrayInputsAgree() {
        let key = Array("key".utf8)
        let message = "The quick brown fox jumps over the lazy dog"
        #expect(HMAC.sha256(key: Data(key), message: Data(message.utf8))
            == HMAC.sha256(key: key, message: Array(message.utf8)))
    }
}
