import Foundation
import GatehouseCrypto
import Testing
@testable import GatehouseVerificationEngine
import GatehouseFormats

@Suite struct AuthorizationHeaderTests {
    @Test func publicHeaderHasNoSignature() throws {
        let parsed = try #require(RequestSigner.parseApplicationHeader("Application app_key-1"))
        #expect(parsed.key == "app_key-1")
        #expect(parsed.signature == nil)
    }

    @Test func signedHeaderSplitsAtFirstColon() throws {
        let parsed = try #require(RequestSigner.parseApplicationHeader(
            "Application key1:BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ8="
        ))
        #expect(parsed.key == "key1")
        #expect(parsed.signature == "BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ8=")
        // Everything after the first colon is the signature; it then simply fails to verify.
        let twoColons = try #require(RequestSigner.parseApplicationHeader("Application k:a:b"))
        #expect(twoColons.key == "k")
        #expect(twoColons.signature == "a:b")
    }

    @Test func schemeNameIsCaseInsensitive() {
        #expect(RequestSigner.parseApplicationHeader("application key")?.key == "key")
        #expect(RequestSigner.parseApplicationHeader("APPLICATION key:sig")?.signature == "sig")
    }

    @Test(arguments: [
        "",
        "Application",
        "Application ",                // nothing after the scheme
        "Application :sig",            // empty key
        "Application :",
        "Application key:",            // empty signature
        "Application key extra",       // trailing text after the key
        "Application key ",
        "Application  key",            // second space makes the key start with whitespace
        "Application key:sig extra",
        "Application key:sig\t",
        "Application\tkey",
        "Applicationkey",
        "Application kéy",
        "Basic a2V5OnNlY3JldA==",
        "Bearer key",
    ])
    func rejectsMalformedApplicationHeaders(_ header: String) {
        #expect(RequestSigner.parseApplicationHeader(header) == nil)
    }

    @Test func parsesBasicCredentials() throws {
        let encoded = Base64.encode(Array("app-key:31m-CahIKK3u6hpRgs4".utf8))
        let parsed = try #require(RequestSigner.parseBasic("Basic " + encoded))
        #expect(parsed.key == "app-key")
        #expect(parsed.secret == "31m-CahIKK3u6hpRgs4")
        let colonInSecret = try #require(RequestSigner.parseBasic("basic " + Base64.encode(Array("k:a:b".utf8))))
        #expect(colonInSecret.key == "k")
        #expect(colonInSecret.secret == "a:b")
    }

    @Test(arguments: [
        "Basic " + Base64.encode(Array("keysecret".utf8)),   // no colon
        "Basic " + Base64.encode(Array(":secret".utf8)),     // starts with a colon
        "Basic " + Base64.encode([0x6B, 0x3A, 0xFF]),        // not UTF-8
        "Basic ",
        "Basic",
        "Basic !!!!",
        "Basic a2V5OnNlY3JldA",                              // unpadded: not standard base64
        "Basic  a2V5OnNlY3JldA==",
        "Application a2V5OnNlY3JldA==",
        "",
    ])
    func rejectsMalformedBasicHeaders(_ header: String) {
        #expect(RequestSigner.parseBasic(header) == nil)
    }

    @Test func theHeaderIsTrimmedOfTheWhitespaceAroundIt() {
        let basic = "Basic " + Base64.encode(Array("app-key:s3cret".utf8))
        // What `CharacterSet.whitespaces` holds, at either end; inside the value it stays an error.
        for header in [basic, " " + basic, basic + "\t", "\u{A0}" + basic + "\u{3000}"] {
            let credential = RequestSigner.credential(authorization: header, timestamp: nil, method: "GET", body: [], contentType: nil, path: "/")
            #expect(credential == VerificationCredential(appKey: "app-key", proof: .secret("s3cret")), "\(header.debugDescription)")
        }
        #expect(RequestSigner.credential(authorization: "Application k ey", timestamp: nil, method: "GET", body: [], contentType: nil, path: "/") == nil)
        #expect(RequestSigner.credential(authorization: " \t", timestamp: nil, method: "GET", body: [], contentType: nil, path: "/") == nil)
    }
}
