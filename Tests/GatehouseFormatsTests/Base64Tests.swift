import Foundation
import Testing
import GatehouseFormats

/// RFC 4648 §10 vectors, the URL-safe alphabet, and the strict decoder's rejections.
struct Base64Tests {
    static let rfc4648: [(plain: String, encoded: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: rfc4648)
    func standardVectors(vector: (plain: String, encoded: String)) {
        #expect(Base64.encode(Array(vector.plain.utf8)) == vector.encoded)
        #expect(Base64.decode(vector.encoded) == Array(vector.plain.utf8))
    }

    @Test(arguments: rfc4648)
    func urlVectorsDropPadding(vector: (plain: String, encoded: String)) {
        let unpadded = vector.encoded.replacingOccurrences(of: "=", with: "")
        #expect(Base64URL.encode(Data(vector.plain.utf8)) == unpadded)
        #expect(Base64URL.decode(unpadded) == Array(vector.plain.utf8))
    }

    @Test func alphabetsDifferInTheLastTwoSymbols() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf]
        #expect(Base64.encode(bytes) == "+/+/")
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(Base64.decode("+/+/") == bytes)
        #expect(Base64URL.decode("-_-_") == bytes)
        #expect(Base64.encode([0xfb, 0xff]) == "+/8=")
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
    }

    @Test func allByteValuesRoundTrip() {
        let everyByte: [UInt8] = (0...255).map { UInt8($0) }
        let bytes = everyByte + everyByte + everyByte + [7]
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }

    @Test(arguments: [
        "Zg", "Zg=", "Zm8", // missing padding
        "Zm9v=", "Zm9v====", "Z===", "Zg===", // extra or impossible padding
        "Zg==Zg==", "Zm=v", // padding before the end
        "Zh==", "Zm9=", // non-zero unused bits (canonical forms are Zg== and Zm8=)
        "Zm9v\n", " Zm9v", "Zm 9v", "Zm9v\r\n", // whitespace
        "-_8=", "Zm9v_w==", // URL-safe alphabet
        "Zm9v!A==", "Zm9vYmFy\u{00e9}", // outside the alphabet
    ])
    func standardRejects(input: String) {
        #expect(Base64.decode(input) == nil)
    }

    @Test(arguments: [
        "Zg==", "Zm8=", "=", // any padding
        "+/8", "Zm9v/w", // standard alphabet
        "Z", "Zm9vY", // a length no byte string encodes to
        "Zh", "Zm9", // non-zero unused bits
        "Zm9v\n", " Zm9v", "Zm.9v", // whitespace and separators
    ])
    func urlRejects(input: String) {
        #expect(Base64URL.decode(input) == nil)
    }
}
