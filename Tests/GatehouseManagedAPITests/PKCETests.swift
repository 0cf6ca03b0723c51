import Foundation
import Testing
@testable import GatehouseManagedAPI

/// SHA-256 against FIPS 180-4's examples and PKCE against RFC 7636 Appendix B.
@Suite struct PKCETests {
    func hex(_ text: String) -> String { Digest.hex(PortableSHA256.hash(Array(text.utf8))) }

    @Test func sha256StandardVectors() {
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Digest.hex(PortableSHA256.hash(Array(repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingBoundariesMatchThePlatformDigest() {
        for length in [55, 56, 63, 64, 65, 119, 120, 128] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            #expect(PortableSHA256.hash(message) == Digest.sha256(message), "length \(length)")
        }
    }

    /// The pair exactly as RFC 7636 Appendix B prints it.
    @Test func rfc7636AppendixB() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func stateAndVerifierAreIndependent43CharacterTokens() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let pkce = PKCE.make()
        #expect(pkce.state.count == 43 && pkce.verifier.count == 43 && pkce.state != pkce.verifier)
        #expect(pkce.verifier.allSatisfy(alphabet.contains) && pkce.state.allSatisfy(alphabet.contains))
        #expect(PKCE.make().state != pkce.state)
    }
}
