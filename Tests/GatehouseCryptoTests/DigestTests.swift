import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// Known-answer tests from FIPS 180-2 Appendix B/C (SHA-2) and RFC 1321 §A.5 (MD5).
struct DigestTests {
    static let message448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    static let message896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (message448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256(message: String, expected: String) {
        #expect(SHA256.hash(Array(message.utf8)).hexString == expected)
        #expect(SHA256.hash(Data(message.utf8)).count == SHA256.byteCount)
    }

    @Test(arguments: [
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
            + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        (message448, "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
            + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"),
        (message896, "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
            + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
    ])
    func sha512(message: String, expected: String) {
        #expect(SHA512.hash(Array(message.utf8)).hexString == expected)
    }

    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5(message: String, expected: String) {
        #expect(MD5.hash(Array(message.utf8)).hexString == expected)
    }

    @Test func contentMD5HeaderValue() {
        // Content-MD5 (RFC 1864) is the base64 of the digest.
        #expect(Base64.encode(MD5.hash([UInt8]())) == "1B2M2Y8AsgTpgAmY7PhCfg==")
    }

    @Test func sha256OfOneMillionAs() {
        // FIPS 180-2 Appendix B.3; also exercises a large multi-region input.
        var data = DispatchData.empty
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        for _ in 0..<10 {
            chunk.withUnsafeBytes { data.append(DispatchData(bytes: $0)) }
        }
        #expect(SHA256.hash(data).hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hexRoundTrip() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7f, 0x80, 0xab, 0xff]
        #expect(bytes.hexString == "00017f80abff")
        #expect([UInt8](hexString: "00017F80abFF") == bytes)
        #expect([UInt8](hexString: "") == [])
        #expect([UInt8](hexString: "abc") == nil)
        #expect([UInt8](hexString: "zz") == nil)
        #expect([UInt8](hexString: "0x00") == nil)
    }
}
