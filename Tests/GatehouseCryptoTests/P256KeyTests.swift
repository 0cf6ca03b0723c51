import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// P-256 key import from every supported encoding, and signature formats.
struct P256KeyTests {
    @Test func jwkPointAndSPKIDescribeTheSameKey() throws {
        let fromJWK = try P256PublicKey(jwkX: JWSTests.rfcX, y: JWSTests.rfcY)
        let point = fromJWK.uncompressedPoint
        #expect(point.count == 65)
        #expect(point[0] == 0x04)
        #expect(Array(point[1...32]) == Base64URL.decode(JWSTests.rfcX))
        #expect(Array(point[33...]) == Base64URL.decode(JWSTests.rfcY))
        #expect(try P256PublicKey(uncompressedPoint: point) == fromJWK)
        #expect(try P256PublicKey(subjectPublicKeyInfo: fromJWK.subjectPublicKeyInfo) == fromJWK)
    }

    @Test func pemPrivateKeyCertificateAndPEMPublicKeyAgree() throws {
        let privateKey = try P256PrivateKey(pem: Fixtures.leafPrivateKeyPEM)
        let fromPEM = try P256PublicKey(pem: Fixtures.leafPublicKeyPEM)
        let fromCertificate = try P256PublicKey(certificate: Certificate(pem: Fixtures.leafPEM))
        #expect(privateKey.publicKey == fromPEM)
        #expect(fromCertificate == fromPEM)
        let reloaded = try P256PrivateKey(pem: privateKey.pemRepresentation)
        #expect(reloaded.publicKey == fromPEM)
    }

    @Test func rawAndDERSignaturesBothVerify() throws {
        let privateKey = try P256PrivateKey.generate()
        let message = Array("signed transaction".utf8)
        let raw = try privateKey.signature(for: message)
        let der = try privateKey.derSignature(for: Data(message))
        #expect(raw.count == 64)
        #expect(der.first == 0x30)
        #expect(privateKey.publicKey.verify(rawSignature: raw, message: message))
        #expect(privateKey.publicKey.verify(derSignature: der, message: message))
        #expect(!privateKey.publicKey.verify(rawSignature: raw, message: Array("other".utf8)))
        #expect(!privateKey.publicKey.verify(derSignature: raw, message: message))
        #expect(!privateKey.publicKey.verify(rawSignature: der, message: message))
        #expect(!privateKey.publicKey.verify(rawSignature: [UInt8](repeating: 0, count: 64), message: message))
    }

    @Test func invalidPointsAreRejected() throws {
        var point = try P256PublicKey(jwkX: JWSTests.rfcX, y: JWSTests.rfcY).uncompressedPoint
        point[64] ^= 0x01 // (x, y') is not on the curve
        #expect(throws: CryptoError.self) { try P256PublicKey(uncompressedPoint: point) }
        #expect(throws: CryptoError.self) { try P256PublicKey(uncompressedPoint: point.prefix(64)) }
        #expect(throws: CryptoError.self) { try P256PublicKey(uncompressedPoint: [0x02] + point.dropFirst()) }
        #expect(throws: CryptoError.self) { try P256PublicKey(jwkX: JWSTests.rfcX, y: "AAAA") }
        #expect(throws: CryptoError.self) { try P256PublicKey(jwkX: JWSTests.rfcX + "=", y: JWSTests.rfcY) }
    }

    @Test func otherCurvesAndGarbageAreRejected() throws {
        let appleRoot = try Certificate(pem: Fixtures.appleRootG3PEM)
        #expect(throws: CryptoError.self) { try P256PublicKey(certificate: appleRoot) }
        let garbagePEM = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"
        #expect(throws: CryptoError.self) { try P256PublicKey(pem: garbagePEM) }
        #expect(throws: CryptoError.self) { try P256PublicKey(subjectPublicKeyInfo: [0x30, 0x00]) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(pem: Fixtures.leafPublicKeyPEM) }
        let spki = try P256PublicKey(pem: Fixtures.leafPublicKeyPEM).subjectPublicKeyInfo
        #expect(throws: CryptoError.self) { try P256PublicKey(subjectPublicKeyInfo: spki + [0]) }
    }
}
