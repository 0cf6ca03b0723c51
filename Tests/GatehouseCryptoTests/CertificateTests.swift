import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// Parsing, Apple's root, and chain validation at chosen times against the fixture PKI.
struct CertificateTests {
    static let insideValidity = Date(timeIntervalSince1970: 1_750_000_000) // 2025-06-15
    static let afterLeafExpiry = Date(timeIntervalSince1970: 1_780_000_000) // 2026-05-28
    static let beforeLeafValidity = Date(timeIntervalSince1970: 1_720_000_000) // 2024-07-03
    static let appStoreLeafMarker = "1.2.840.113635.100.6.11.1"
    static let wwdrIntermediateMarker = "1.2.840.113635.100.6.2.1"

    struct PKI {
        let root = try! Certificate(pem: Fixtures.rootPEM)
        let intermediate = try! Certificate(pem: Fixtures.intermediatePEM)
        let leaf = try! Certificate(pem: Fixtures.leafPEM)
        let otherRoot = try! Certificate(pem: Fixtures.otherRootPEM)
    }

    /// Asserts `body` throws a chain rejection of the given kind.
    static func expectRejection(
        _ expected: ChainRejection, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected a \(expected) rejection, but the chain verified", sourceLocation: sourceLocation)
        } catch CryptoError.untrustedChain(let rejection, _, let detail) {
            #expect(rejection == expected, "\(detail)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a chain rejection, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func appleRootParsesAndIsItsOwnRoot() throws {
        let root = try Certificate(pem: Fixtures.appleRootG3PEM)
        #expect(root.sha256Fingerprint.hexString == Fixtures.appleRootG3Fingerprint)
        #expect(root.subjectCommonName == "Apple Root CA - G3")
        #expect(root.subject == "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA - G3")
        #expect(root.issuer == root.subject)
        #expect(root.isSelfSigned)
        #expect(root.notBefore == Date(timeIntervalSince1970: 1_398_881_946)) // 2014-04-30T18:19:06Z
        #expect(root.notAfter == Date(timeIntervalSince1970: 2_187_800_346)) // 2039-04-30T18:19:06Z
        let verified = try CertificateChain.verify(
            leaf: root, intermediates: [], trustedRoot: root, at: Self.insideValidity
        )
        #expect(verified == root)
        Self.expectRejection(.expired) {
            try CertificateChain.verify(
                leaf: root, intermediates: [], trustedRoot: root, at: Date(timeIntervalSince1970: 2_200_000_000)
            )
        }
    }

    @Test func fixtureFieldsParse() {
        let pki = PKI()
        #expect(pki.leaf.subjectCommonName == "Gatehouse Test Signing Leaf")
        #expect(pki.leaf.issuer == pki.intermediate.subject)
        #expect(pki.leaf.serialNumberHex == "1003")
        #expect(pki.leaf.notBefore == Date(timeIntervalSince1970: 1_735_689_600)) // 2025-01-01
        #expect(pki.leaf.notAfter == Date(timeIntervalSince1970: 1_767_225_600)) // 2026-01-01
        #expect(pki.root.isSelfSigned)
        #expect(!pki.leaf.isSelfSigned)
        #expect(pki.leaf.hasExtension(oid: Self.appStoreLeafMarker))
        #expect(!pki.leaf.hasExtension(oid: Self.wwdrIntermediateMarker))
        #expect(pki.intermediate.hasExtension(oid: Self.wwdrIntermediateMarker))
        #expect(!pki.leaf.hasExtension(oid: "not an oid"))
        #expect(pki.root != pki.otherRoot)
        #expect(pki.root.subject == pki.otherRoot.subject)
        #expect(pki.root.subject == "O=Gatehouse Tests,CN=Gatehouse Test Root CA")
    }

    @Test func encodingsRoundTrip() throws {
        let pki = PKI()
        #expect(try Certificate(der: pki.leaf.derRepresentation) == pki.leaf)
        #expect(try Certificate(pem: pki.leaf.pemRepresentation) == pki.leaf)
        let bundle = [Fixtures.leafPEM, Fixtures.intermediatePEM, Fixtures.rootPEM].joined(separator: "\n")
        #expect(try Certificate.all(pem: bundle) == [pki.leaf, pki.intermediate, pki.root])
        #expect(try Certificate.all(pem: "").isEmpty)
    }

    @Test func garbageIsRejected() throws {
        let der = PKI().leaf.derRepresentation
        #expect(throws: CryptoError.self) { try Certificate(der: der + [0]) }
        #expect(throws: CryptoError.self) { try Certificate(der: der.prefix(der.count - 1)) }
        #expect(throws: CryptoError.self) { try Certificate(der: [UInt8]()) }
        #expect(throws: CryptoError.self) { try Certificate(pem: "no certificate here") }
        let damaged = Fixtures.leafPEM.replacingOccurrences(of: "MII", with: "MIX")
        #expect(throws: CryptoError.self) { try Certificate(pem: damaged) }
    }

    @Test func chainVerifiesInsideValidity() throws {
        let pki = PKI()
        let verified = try CertificateChain.verify(
            leaf: pki.leaf, intermediates: [pki.intermediate], trustedRoot: pki.root, at: Self.insideValidity
        )
        #expect(verified == pki.leaf)
        // Several roots, the right one among them, is fine too.
        try CertificateChain.verify(
            leaf: pki.leaf, intermediates: [pki.intermediate], trustedRoots: [pki.otherRoot, pki.root],
            at: Self.insideValidity
        )
    }

    @Test func chainFailsOutsideTheLeafsValidity() {
        let pki = PKI()
        Self.expectRejection(.expired) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [pki.intermediate], trustedRoot: pki.root, at: Self.afterLeafExpiry
            )
        }
        Self.expectRejection(.notYetValid) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [pki.intermediate], trustedRoot: pki.root, at: Self.beforeLeafValidity
            )
        }
    }

    @Test func chainFailsWithTheWrongRoot() {
        let pki = PKI()
        // Same subject name as the real root, different key: names alone must not create trust.
        Self.expectRejection(.untrustedIssuer) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [pki.intermediate], trustedRoot: pki.otherRoot, at: Self.insideValidity
            )
        }
        let appleRoot = try! Certificate(pem: Fixtures.appleRootG3PEM)
        Self.expectRejection(.untrustedIssuer) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [pki.intermediate, pki.root], trustedRoot: appleRoot,
                at: Self.insideValidity
            )
        }
        Self.expectRejection(.untrustedIssuer) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [pki.intermediate], trustedRoots: [], at: Self.insideValidity
            )
        }
    }

    @Test func chainFailsWithoutTheIntermediate() {
        let pki = PKI()
        Self.expectRejection(.untrustedIssuer) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [], trustedRoot: pki.root, at: Self.insideValidity
            )
        }
        // An intermediate is not a trust anchor: trusting it directly does not shortcut the path.
        Self.expectRejection(.untrustedIssuer) {
            try CertificateChain.verify(
                leaf: pki.leaf, intermediates: [], trustedRoot: pki.intermediate, at: Self.insideValidity
            )
        }
    }

    @Test func signedJWSWithX5CChainVerifiesEndToEnd() throws {
        let pki = PKI()
        let signer = try P256PrivateKey(pem: Fixtures.leafPrivateKeyPEM)
        let payload = Array(#"{"bundleId":"com.example.app","signedDate":1750000000000}"#.utf8)
        let token = try JWS.signES256(
            payload: payload, privateKey: signer, x5c: [pki.leaf, pki.intermediate, pki.root]
        )
        let decoded = try JWS.decode(compact: token)
        #expect(decoded.header.x5c?.count == 3)
        let chain = try decoded.certificateChain()
        // Trust comes from the configured root, never from x5c's own last entry.
        let leaf = try CertificateChain.verify(
            leaf: chain[0], intermediates: [chain[1]], trustedRoot: pki.root, at: Self.insideValidity
        )
        #expect(leaf.hasExtension(oid: Self.appStoreLeafMarker))
        let verified = try JWS.verifyES256(compact: token, publicKey: P256PublicKey(certificate: leaf))
        #expect(verified.payload == payload)
    }

    @Test func x5cEntriesMustBeStandardBase64DER() throws {
        let signer = try P256PrivateKey(pem: Fixtures.leafPrivateKeyPEM)
        let der = PKI().leaf.derRepresentation
        for entry in [Fixtures.leafPEM, Base64URL.encode(der), Base64.encode(der) + "\n", Base64.encode([1, 2, 3])] {
            let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": [entry]])
            let token = try JWS.signES256(headerJSON: header, payload: [UInt8](), privateKey: signer)
            #expect(throws: JWTError.malformed) { try JWS.decode(compact: token).certificateChain() }
        }
    }
}
