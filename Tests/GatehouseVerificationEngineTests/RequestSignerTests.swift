import Foundation
import GatehouseCrypto
import Testing
@testable import GatehouseVerificationEngine
import GatehouseFormats

/// One row of the wire note's §5 signing table.
struct SigningVector: CustomTestStringConvertible, Sendable {
    let number: Int
    let secret: String
    let method: String
    let contentType: String?
    let path: String
    let timestamp: String
    let body: String?
    let signature: String

    var testDescription: String { "vector \(number)" }
}

private let secretA = "31m-CahIKK3u6hpRgs4-MGRtTm9_znlUWAzMNA_9_2s"
private let secretB = "3Gv1lbjg4AoJG3g8ZPhlsmTRb8_dYjmL_PXX65E-xq4"
private let startBody = #"{"data":{"destination":"+15555550100","delivery_method":"sms","sms":{"languages":["en-US"]}}}"#
private let reportBody = #"{"data":{"delivery_method":"sms","code":"123456"}}"#
private let callbackBody =
    #"{"event":"verification_request","data":{"id":"0199a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d","destination":"15555550100","delivery_method":"sms"}}"#

let signingVectors: [SigningVector] = [
    SigningVector(number: 1, secret: secretA, method: "POST", contentType: "application/json",
                  path: "/api/v1/verifications", timestamp: "1767225600", body: startBody,
                  signature: "BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ8="),
    SigningVector(number: 2, secret: secretA, method: "GET", contentType: nil,
                  path: "/api/v1/verifications/0199a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", timestamp: "1767225601",
                  body: nil, signature: "YYWH3diq2yHqVw4FnhAxj6YfIMDTu0RzbhFmoFdbALI="),
    SigningVector(number: 3, secret: secretA, method: "GET", contentType: nil,
                  path: "/api/v1/verifications/by_number/15555550100", timestamp: "1767225602",
                  body: nil, signature: "b+o75b6NI5MX4LrWo2WouuSWWZ2VTjIPhEeFuWHipW4="),
    SigningVector(number: 4, secret: secretB, method: "PATCH", contentType: "application/json",
                  path: "/api/v1/verifications/0199a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", timestamp: "1767225603",
                  body: reportBody, signature: "AVQS59i8KsEc8Ai182N1kA8cbtIUusghs0ekP5m5bmk="),
    SigningVector(number: 5, secret: secretB, method: "PATCH", contentType: "application/json",
                  path: "/api/v1/verifications/by_number/15555550100", timestamp: "1767225604",
                  body: reportBody, signature: "/klPV2iwF2WLgFf1q8JGYqIbJELoUzwTw21Tw817Zjo="),
    SigningVector(number: 6, secret: secretB, method: "POST", contentType: "application/json",
                  path: "/webhooks/verification", timestamp: "1767225605", body: callbackBody,
                  signature: "l2XcvVWAV1daqJ7fsS/rRhzB7aRH7WLopiFTu7wvG8I="),
    SigningVector(number: 7, secret: secretB, method: "POST", contentType: "application/json",
                  path: "", timestamp: "1767225606", body: callbackBody,
                  signature: "I19Pndt4VZ64GQ837VpySh5XsC/JASIIROOKjRfTzws="),
    SigningVector(number: 8, secret: secretA, method: "GET", contentType: nil,
                  path: "/api/v1/verifications/not%20a%2Fuuid", timestamp: "1767225607", body: nil,
                  signature: "eukUr83Mz46Zpd0CNi6jOgwMdlbQfIoPKycjkVlBxoU="),
]

private func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }

@Suite struct RequestSignerTests {
    @Test(arguments: signingVectors)
    func signsVector(_ vector: SigningVector) throws {
        let key = try #require(RequestSigner.key(fromSecret: vector.secret))
        let signature = RequestSigner.sign(
            key: key, method: vector.method, body: bytes(vector.body), contentType: vector.contentType,
            timestamp: vector.timestamp, path: vector.path
        )
        #expect(signature == vector.signature)
    }

    @Test(arguments: signingVectors)
    func verifiesVector(_ vector: SigningVector) throws {
        let key = try #require(RequestSigner.key(fromSecret: vector.secret))
        let now = Date(timeIntervalSince1970: try #require(TimeInterval(vector.timestamp)))
        #expect(RequestSigner.verify(
            signature: vector.signature, key: key, method: vector.method, body: bytes(vector.body),
            contentType: vector.contentType, timestamp: vector.timestamp, path: vector.path, now: now
        ))
        // The same request with another path must not verify.
        #expect(!RequestSigner.verify(
            signature: vector.signature, key: key, method: vector.method, body: bytes(vector.body),
            contentType: vector.contentType, timestamp: vector.timestamp, path: vector.path + "/x", now: now
        ))
    }

    @Test func stringToSignHasFiveLinesAndNoTrailingNewline() {
        let text = RequestSigner.stringToSign(
            method: "get", contentMD5Body: nil, contentType: nil, timestamp: "1767225601", path: "/p"
        )
        #expect(text == "GET\n\n\nx-timestamp:1767225601\n/p")
        let post = RequestSigner.stringToSign(
            method: "POST", contentMD5Body: Array("{}".utf8), contentType: "application/json",
            timestamp: "1", path: ""
        )
        #expect(post == "POST\nmZFLkyvTelC5g8XnyQrpOw==\napplication/json\nx-timestamp:1\n")
    }

    @Test func whitespaceOnlyBodyHasEmptyMD5ButNonASCIISpaceIsHashed() {
        for body in ["", " ", " \t\n\u{0B}\u{0C}\r "] {
            #expect(RequestSigner.contentMD5(Array(body.utf8)) == "", "body \(Array(body.utf8))")
        }
        #expect(RequestSigner.contentMD5(nil) == "")
        #expect(RequestSigner.contentMD5(Array("\u{00A0}".utf8)) == Base64.encode(MD5.hash(Array("\u{00A0}".utf8))))
        #expect(RequestSigner.contentMD5(Array("\u{00A0}".utf8)) != "")
    }

    @Test func timestampWindowIsInclusiveAtThreeHundredSeconds() {
        let ts = "1767225600"
        let base: TimeInterval = 1_767_225_600
        for offset: TimeInterval in [0, 300, -300, 300.9] {
            #expect(RequestSigner.isFresh(timestamp: ts, now: Date(timeIntervalSince1970: base + offset)), "offset \(offset)")
        }
        for offset: TimeInterval in [301, -301, -300.5] {
            #expect(!RequestSigner.isFresh(timestamp: ts, now: Date(timeIntervalSince1970: base + offset)), "offset \(offset)")
        }
    }

    @Test func verifyRejectsStaleOrMalformedTimestamps() throws {
        let vector = signingVectors[0]
        let key = try #require(RequestSigner.key(fromSecret: vector.secret))
        func check(_ timestamp: String, nowOffset: TimeInterval) -> Bool {
            RequestSigner.verify(
                signature: RequestSigner.sign(key: key, method: "POST", body: bytes(vector.body),
                                              contentType: vector.contentType, timestamp: timestamp, path: vector.path),
                key: key, method: "POST", body: bytes(vector.body), contentType: vector.contentType,
                timestamp: timestamp, path: vector.path, now: Date(timeIntervalSince1970: 1_767_225_600 + nowOffset)
            )
        }
        #expect(check("1767225600", nowOffset: 300))
        #expect(check("1767225600", nowOffset: -300))
        #expect(!check("1767225600", nowOffset: 301))
        #expect(!check("1767225600", nowOffset: -301))
        // Leading zeros are digits: signed as received, same instant.
        #expect(check("01767225600", nowOffset: 0))
        for bad in ["", "+1767225600", "-1767225600", " 1767225600", "1767225600 ", "1767225600.0",
                    "1767225600s", "１７６７２２５６００", String(repeating: "9", count: 30)] {
            #expect(!check(bad, nowOffset: 0), "timestamp \(bad)")
        }
    }

    @Test func verifyComparesBase64StringsNotBytes() throws {
        let vector = signingVectors[0]
        let key = try #require(RequestSigner.key(fromSecret: vector.secret))
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        func check(_ signature: String) -> Bool {
            RequestSigner.verify(signature: signature, key: key, method: vector.method, body: bytes(vector.body),
                                 contentType: vector.contentType, timestamp: vector.timestamp, path: vector.path, now: now)
        }
        #expect(check("BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ8="))
        // Same bytes to a lenient decoder (unused low bits set / padding dropped), different strings.
        #expect(!check("BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ9="))
        #expect(!check("BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ8"))
        #expect(!check(""))
        #expect(!check("BsCRCSiIoYaCAx4e6zW6EiIlasXkKO9Hp0rRCkRnsQ8=\n"))
    }

    @Test func decodesCanonicalAndLenientSecrets() throws {
        let key = try #require(RequestSigner.key(fromSecret: secretA))
        #expect(key.count == 32)
        #expect(key == Base64URL.decode(secretA))
        let standardAlphabet = secretA.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        #expect(RequestSigner.key(fromSecret: standardAlphabet) == key)
        #expect(RequestSigner.key(fromSecret: secretA + "=") == key)
        #expect(RequestSigner.key(fromSecret: "AA==") == [0])
        #expect(RequestSigner.key(fromSecret: "AA") == [0])
        #expect(RequestSigner.key(fromSecret: "AAA=") == [0, 0])
    }

    @Test(arguments: [
        "", " ", "   ", "\n",
        "A", "AAAAA", "31m-CahIKK3u6hpRgs4-MGRtTm9_znlUWAzMNA_9_2sAA",  // length ≡ 1 (mod 4)
        "31m-CahIKK3u6hpRgs4-MGRtTm9_znlUWAzMNA_9_2t",                  // nonzero unused bits
        "AB", "AAB",                                                    // nonzero unused bits
        "ab cd", "ab.c", "abcd\n", " abcd", "ab*d", "äbcd",              // characters outside the alphabet
        "AAAA=", "AA=", "AA===", "A===", "=", "==", "AA=A",             // misplaced or wrong padding
        "31m-CahIKK3u6hpRgs4-MGRtTm9_znlUWAzMNA_9_2s==",
    ])
    func rejectsBadSecrets(_ secret: String) {
        #expect(RequestSigner.key(fromSecret: secret) == nil)
    }
}
