import Foundation
import GatehouseCrypto
import GatehouseFormats
import GatehouseTesting
import Testing

/// The relying party's checks of both ceremonies, with a software authenticator for each
/// algorithm offered, and every negative case of the notes' §6 that needs no stored state.
@Suite struct WebAuthnTests {
    static let rp = WebAuthnRelyingParty(id: "id.example", origins: ["https://id.example", "android:apk-key-hash:abc"])
    static let offered: Set<Int> = [COSEKey.es256, COSEKey.eddsa, COSEKey.rs256]
    static let challenge = [UInt8](repeating: 7, count: 32)

    func register(_ algorithm: SoftwareAuthenticator.Algorithm, _ answer: SoftwareAuthenticator.Answer = .init())
        throws -> (SoftwareAuthenticator, SoftwareAuthenticator.Credential, WebAuthnRelyingParty.Registration)
    {
        let authenticator = SoftwareAuthenticator()
        let (credential, response) = try authenticator.register(
            algorithm: algorithm, rpID: "id.example", origin: "https://id.example", challenge: Self.challenge, userHandle: [1, 2, 3], answer: answer)
        return (authenticator, credential, response)
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func aPasskeyRegistersAndSignsIn(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let (authenticator, credential, response) = try register(algorithm)
        let made = try Self.rp.verifyRegistration(response, challenge: Self.challenge, algorithms: Self.offered)
        #expect(made.id == credential.id && made.backupEligible && made.backedUp && made.userVerified && made.signCount == 0 && made.format == "none")
        #expect(made.publicKey.algorithm == [.es256: COSEKey.es256, .eddsa: COSEKey.eddsa, .rs256: COSEKey.rs256][algorithm])
        let key = try COSEKey(CBORReader.decode(made.publicKeyBytes))
        let challenge = [UInt8](repeating: 9, count: 32)
        let verified = try Self.rp.verifyAssertion(try authenticator.assert(credential, origin: "https://id.example", challenge: challenge), challenge: challenge, publicKey: key)
        #expect(verified.signCount == 0 && verified.backedUp && verified.userVerified)
        // Packed self attestation: signed by the new key itself.
        var packed = SoftwareAuthenticator.Answer()
        packed.format = "packed"
        #expect(try Self.rp.verifyRegistration(try register(algorithm, packed).2, challenge: Self.challenge, algorithms: Self.offered).format == "packed")
    }

    static let registrationCases: [(String, (inout SoftwareAuthenticator.Answer) -> Void, WebAuthnError)] = [
        ("another host", { $0.origin = "https://evil.example" }, .originNotAllowed),
        ("http for https", { $0.origin = "http://id.example" }, .originNotAllowed),
        ("an extra port", { $0.origin = "https://id.example:8443" }, .originNotAllowed),
        ("an unlisted subdomain", { $0.origin = "https://login.id.example" }, .originNotAllowed),
        ("another rpId", { $0.rpID = "evil.example" }, .rpIDMismatch),
        ("a public suffix as rpId", { $0.rpID = "example" }, .rpIDMismatch),
        ("another challenge", { $0.challenge = [UInt8](repeating: 8, count: 32) }, .challengeMismatch),
        ("webauthn.get at registration", { $0.type = "webauthn.get" }, .wrongCeremony),
        ("cross-origin", { $0.crossOrigin = true }, .crossOrigin),
        ("UP clear", { $0.flags.remove(.userPresent) }, .userNotPresent),
        ("UV clear", { $0.flags.remove(.userVerified) }, .userNotVerified),
        ("BS without BE", { $0.flags.remove(.backupEligible) }, .backupStateInvalid),
        ("none with a statement", { $0.extraStatement = [CBORPair(key: .text("x"), value: .null)] }, .attestationStatementInvalid),
        ("packed with x5c", { $0.format = "packed"; $0.extraStatement = [CBORPair(key: .text("x5c"), value: .array([]))] }, .attestationStatementInvalid),
        ("a format not taken", { $0.format = "tpm" }, .attestationFormatUnsupported),
    ]

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func registrationsThatBreakARuleAreRefused(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        for (name, bend, error) in Self.registrationCases {
            var answer = SoftwareAuthenticator.Answer()
            bend(&answer)
            let response = try register(algorithm, answer).2
            #expect(throws: error, "\(name)") { try Self.rp.verifyRegistration(response, challenge: Self.challenge, algorithms: Self.offered) }
        }
        let response = try register(algorithm).2
        #expect(throws: WebAuthnError.algorithmNotOffered) {
            try Self.rp.verifyRegistration(response, challenge: Self.challenge, algorithms: Self.offered.subtracting([response.algorithmOffered]))
        }
        var mismatched = response
        mismatched.id = Base64URL.encode([1, 2, 3])
        #expect(throws: WebAuthnError.idMismatch) { try Self.rp.verifyRegistration(mismatched, challenge: Self.challenge, algorithms: Self.offered) }
        var typed = response
        typed.type = "password"
        #expect(throws: WebAuthnError.typeNotPublicKey) { try Self.rp.verifyRegistration(typed, challenge: Self.challenge, algorithms: Self.offered) }
        var truncated = response
        truncated.attestationObject.removeLast(5)
        #expect(throws: WebAuthnError.attestationMalformed) { try Self.rp.verifyRegistration(truncated, challenge: Self.challenge, algorithms: Self.offered) }
        var notJSON = response
        notJSON.clientDataJSON = Array("{\"type\":".utf8)
        #expect(throws: WebAuthnError.clientDataMalformed) { try Self.rp.verifyRegistration(notJSON, challenge: Self.challenge, algorithms: Self.offered) }
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func assertionsThatBreakARuleAreRefused(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let (authenticator, credential, response) = try register(algorithm)
        let key = try Self.rp.verifyRegistration(response, challenge: Self.challenge, algorithms: Self.offered).publicKey
        let challenge = [UInt8](repeating: 5, count: 32)
        func refused(_ name: String, _ error: WebAuthnError, bend: (inout SoftwareAuthenticator.Answer) -> Void = { _ in },
                     change: (inout WebAuthnRelyingParty.Assertion) -> Void = { _ in }) throws {
            var answer = SoftwareAuthenticator.Answer()
            bend(&answer)
            var assertion = try authenticator.assert(credential, origin: "https://id.example", challenge: challenge, answer: answer)
            change(&assertion)
            #expect(throws: error, "\(name)") { try Self.rp.verifyAssertion(assertion, challenge: challenge, publicKey: key) }
        }
        try refused("webauthn.create at sign-in", .wrongCeremony, bend: { $0.type = "webauthn.create" })
        try refused("another origin", .originNotAllowed, bend: { $0.origin = "https://id.example.evil.example" })
        try refused("another rpId", .rpIDMismatch, bend: { $0.rpID = "evil.example" })
        try refused("a registration's challenge", .challengeMismatch, bend: { $0.challenge = Self.challenge })
        try refused("UP clear", .userNotPresent, bend: { $0.flags.remove(.userPresent) })
        try refused("UV clear", .userNotVerified, bend: { $0.flags.remove(.userVerified) })
        try refused("BS without BE", .backupStateInvalid, bend: { $0.flags.remove(.backupEligible) })
        try refused("a flipped byte of authData", .signatureInvalid, change: { $0.authenticatorData[36] ^= 1 })
        // In the field browsers add to warn off templates: still JSON, the same ceremony, another message.
        try refused("a flipped byte of clientDataJSON", .signatureInvalid, change: { $0.clientDataJSON[$0.clientDataJSON.count - 3] ^= 0x20 })
        try refused("a flipped byte of the signature", .signatureInvalid, change: { $0.signature[$0.signature.count / 2] ^= 1 })
        try refused("authData too short", .authenticatorDataMalformed, change: { $0.authenticatorData.removeLast() })
        try refused("id not rawId", .idMismatch, change: { $0.id = Base64URL.encode([9]) })
        // Another credential's key.
        let other = try register(algorithm).2
        let otherKey = try Self.rp.verifyRegistration(other, challenge: Self.challenge, algorithms: Self.offered).publicKey
        let assertion = try authenticator.assert(credential, origin: "https://id.example", challenge: challenge)
        #expect(throws: WebAuthnError.signatureInvalid) { try Self.rp.verifyAssertion(assertion, challenge: challenge, publicKey: otherKey) }
        // An Android app's origin is taken when listed.
        let android = try authenticator.assert(credential, origin: "android:apk-key-hash:abc", challenge: challenge)
        #expect(try Self.rp.verifyAssertion(android, challenge: challenge, publicKey: key).userVerified)
        // Without UV required, UV clear is taken.
        var relaxed = SoftwareAuthenticator.Answer()
        relaxed.flags.remove(.userVerified)
        let lenient = WebAuthnRelyingParty(id: "id.example", origins: ["https://id.example"], requireUserVerification: false)
        #expect(try !lenient.verifyAssertion(try authenticator.assert(credential, origin: "https://id.example", challenge: challenge, answer: relaxed),
            challenge: challenge, publicKey: key).userVerified)
    }

    @Test func coseKeysThatAreNotTheirAlgorithmsAreRefused() throws {
        let point = try P256PrivateKey.generate().publicKey.uncompressedPoint
        func ec(_ pairs: [(Int64, CBOR)]) -> CBOR { .map(pairs.map { CBORPair(key: .int($0.0), value: $0.1) }) }
        let x = CBOR.bytes(Array(point[1..<33])), y = CBOR.bytes(Array(point[33..<65]))
        #expect(try COSEKey(ec([(1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, x), (-3, y)])).algorithm == COSEKey.es256)
        let refused: [(String, CBOR)] = [
            ("not a map", .array([])), ("no kty", ec([(3, .int(-7))])), ("ES256 on P-384", ec([(1, .int(2)), (3, .int(-7)), (-1, .int(2)), (-2, x), (-3, y)])),
            ("short x", ec([(1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, .bytes([1])), (-3, y)])),
            ("off the curve", ec([(1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, x), (-3, .bytes([UInt8](repeating: 1, count: 32)))])),
            ("EC2 with EdDSA", ec([(1, .int(2)), (3, .int(-8)), (-1, .int(1)), (-2, x), (-3, y)])), ("ES384", ec([(1, .int(2)), (3, .int(-35))])),
            ("a short RSA key", ec([(1, .int(3)), (3, .int(-257)), (-1, .bytes([UInt8](repeating: 0xFF, count: 128))), (-2, .bytes([1, 0, 1]))])),
        ]
        for (name, cbor) in refused { #expect(throws: COSEKey.Problem.self, "\(name)") { try COSEKey(cbor) } }
    }
}

extension WebAuthnRelyingParty.Registration {
    /// The algorithm of the credential this response registers, read from its COSE key.
    var algorithmOffered: Int {
        let object = try? CBORReader.decode(attestationObject)
        guard let authData = object?["authData"]?.byteString, let data = try? AuthenticatorData(authData), let key = data.attested?.publicKey else { return 0 }
        return Int(key[3]?.integer ?? 0)
    }
}
