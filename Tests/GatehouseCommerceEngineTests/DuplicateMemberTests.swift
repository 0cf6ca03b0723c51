import Foundation
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine
import GatehouseFormats

/// Signed App Store data that names a member twice says two things; Apple's library refuses it,
/// and so does the verifier, whichever layer carries the repeat.
@Suite struct DuplicateMemberTests {
    /// A transaction as raw JSON, so a member can be repeated (dictionaries cannot hold two).
    static func transactionJSON(_ extra: String) -> Data {
        Data(#"""
        {"transactionId":"2000000111111111","originalTransactionId":"2000000000000001","productId":"com.example.gatehouse.pro",
        "environment":"Sandbox","signedDate":\#(nowMilliseconds()),\#(extra)}
        """#.utf8)
    }

    @Test func aTransactionNamingItsBundleTwiceIsRefused() async throws {
        let chains = try await Chains.get()
        let verifier = try testVerifier(chains)
        // The same document with the tenant's bundle once verifies.
        let once = try chains.main.sign(payload: Self.transactionJSON(#""bundleId":"\#(bundleId)""#))
        #expect(try verifier.verifyTransaction(once).bundleId == bundleId)
        for repeated in [
            #""bundleId":"\#(bundleId)","bundleId":"com.other.app""#,
            #""bundleId":"com.other.app","bundleId":"\#(bundleId)""#,
            #""bundleId":"\#(bundleId)","b\u0075ndleId":"com.other.app""#,
        ] {
            let jws = try chains.main.sign(payload: Self.transactionJSON(repeated))
            expectCode(.invalidFormat) { _ = try verifier.verifyTransaction(jws) }
        }
    }

    @Test func repeatsAreRefusedInRenewalInfoNotificationsAndNestedObjects() async throws {
        let chains = try await Chains.get()
        let verifier = try testVerifier(chains)
        let renewal = try chains.main.sign(payload: Data(#"""
            {"originalTransactionId":"2000000000000001","environment":"Sandbox","autoRenewStatus":1,"autoRenewStatus":0}
            """#.utf8))
        expectCode(.invalidFormat) { _ = try verifier.verifyRenewalInfo(renewal) }
        let notification = try chains.main.sign(payload: Data(#"""
            {"notificationType":"TEST","notificationUUID":"6b0b6e4e-8c3f-4d43-9a57-0d9b0c1a2b3c","signedDate":\#(nowMilliseconds()),
             "data":{"bundleId":"\#(bundleId)","environment":"Sandbox","environment":"Production"}}
            """#.utf8))
        expectCode(.invalidFormat) { _ = try verifier.verifyNotification(notification) }
        // The same name at different depths is not a repeat.
        let nested = try chains.main.sign(payload: Self.transactionJSON(#""bundleId":"\#(bundleId)","extra":{"bundleId":"x"}"#))
        #expect(try verifier.verifyTransaction(nested).bundleId == bundleId)
    }

    @Test func aHeaderNamingAlgTwiceIsRefused() async throws {
        let chains = try await Chains.get()
        let x5c = chains.main.x5c.map { #""\#($0)""# }.joined(separator: ",")
        let header = #"{"alg":"ES256","x5c":[\#(x5c)],"alg":"HS256"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Self.transactionJSON(#""bundleId":"\#(bundleId)""#))
        let jws = input + "." + Base64URL.encode(try chains.main.leafKey.signature(for: Array(input.utf8)))
        expectCode(.invalidFormat) { _ = try testVerifier(chains).verifyTransaction(jws) }
    }
}
