import Foundation
import GatehouseCrypto
import Testing

@Suite struct SecretBoxTests {
    let box = try! SecretBox(key: Array(0..<32))

    @Test func aSealedSecretOpensOnlyWithItsKeyAndContext() throws {
        let sealed = box.seal("sk-live-0123456789 ünïcode", context: "tenant-1\ncrm")
        #expect(sealed.hasPrefix("v1."))
        #expect(!sealed.contains("sk-live"))
        #expect(box.open(sealed, context: "tenant-1\ncrm") == "sk-live-0123456789 ünïcode")
        #expect(box.open(sealed, context: "tenant-2\ncrm") == nil)
        #expect(try SecretBox(key: Array(repeating: 1, count: 32)).open(sealed, context: "tenant-1\ncrm") == nil)
        // Every seal has its own nonce.
        #expect(box.seal("same", context: "c") != box.seal("same", context: "c"))
        #expect(box.open(box.seal("", context: ""), context: "") == "")
    }

    @Test func alteredOrMalformedTextDoesNotOpen() {
        let sealed = box.seal("secret", context: "c")
        var bytes = Array(sealed.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(box.open(String(decoding: bytes, as: UTF8.self), context: "c") == nil)
        for text in ["", "v1.", "v1.AAAA", "v2." + sealed.dropFirst(3), sealed.replacingOccurrences(of: "v1.", with: "")] {
            #expect(box.open(text, context: "c") == nil)
        }
    }

    @Test func keysAreReadAsHexOrBase64AndMustBe32Bytes() throws {
        let hex = String(repeating: "0f", count: 32)
        let sealed = try SecretBox(text: hex).seal("x", context: "c")
        #expect(try SecretBox(text: Data(repeating: 0x0f, count: 32).base64EncodedString()).open(sealed, context: "c") == "x")
        #expect(throws: CryptoError.self) { try SecretBox(text: "short") }
        #expect(throws: CryptoError.self) { try SecretBox(key: Array(repeating: 0, count: 16)) }
    }
}
