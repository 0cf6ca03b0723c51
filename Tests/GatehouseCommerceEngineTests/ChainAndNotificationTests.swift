import Foundation
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

@Suite struct ChainTests {
    @Test func chainUnderAnotherRootIsUntrusted() async throws {
        let chains = try await Chains.get()
        let jws = try chains.attacker.sign(payload: transaction())
        expectCode(.untrustedChain) { _ = try testVerifier(chains).verifyTransaction(jws) }
    }

    @Test func rootInTheHeaderIsIgnored() async throws {
        let chains = try await Chains.get()
        // Genuine leaf and intermediate with the attacker's root in x5c[2]: still verifies.
        let swapped = [chains.main.x5c[0], chains.main.x5c[1], chains.attacker.x5c[2]]
        let genuine = try chains.main.sign(payload: transaction(), x5c: swapped)
        #expect(try testVerifier(chains).verifyTransaction(genuine).bundleId == bundleId)
        // Garbage where the root goes is not even parsed.
        let garbage = try chains.main.sign(payload: transaction(), x5c: [chains.main.x5c[0], chains.main.x5c[1], "AAAA"])
        #expect(try testVerifier(chains).verifyTransaction(garbage).bundleId == bundleId)
        // The attacker's self-made chain, whatever root it sends, is not trusted.
        let selfMade = try chains.attacker.sign(payload: transaction(), x5c: [chains.attacker.x5c[0], chains.attacker.x5c[1], chains.main.x5c[2]])
        expectCode(.untrustedChain) { _ = try testVerifier(chains).verifyTransaction(selfMade) }
    }

    @Test func intermediateThatDidNotIssueTheLeafIsRefused() async throws {
        let chains = try await Chains.get()
        // The leaf really chains to the trusted root, but x5c[1] is some other intermediate.
        let mixed = [chains.main.x5c[0], chains.intermediateWithoutOID.x5c[1], chains.main.x5c[2]]
        let jws = try chains.main.sign(payload: transaction(), x5c: mixed)
        expectCode(.untrustedChain) { _ = try testVerifier(chains).verifyTransaction(jws) }
    }

    @Test func leafExpiredAtSignedDateIsRefused() async throws {
        let chains = try await Chains.get()
        let jws = try chains.expiredLeaf.sign(payload: transaction())
        expectCode(.expiredAtSigningDate) { _ = try testVerifier(chains).verifyTransaction(jws) }
        let beforeLeaf = chains.expiredLeaf.leaf.notBefore.addingTimeInterval(-86_400)
        let early = try chains.expiredLeaf.sign(payload: transaction(["signedDate": Int64(beforeLeaf.timeIntervalSince1970 * 1000)]))
        expectCode(.notYetValidAtSigningDate) { _ = try testVerifier(chains).verifyTransaction(early) }
    }

    @Test func oldTransactionSignedWhileTheLeafWasValidStillVerifies() async throws {
        let chains = try await Chains.get()
        #expect(chains.expiredLeaf.leaf.notAfter < Date())
        let inside = chains.expiredLeaf.leaf.notAfter.addingTimeInterval(-30 * 86_400)
        let signed = Int64(inside.timeIntervalSince1970 * 1000)
        let jws = try chains.expiredLeaf.sign(payload: transaction(["signedDate": signed]))
        #expect(try testVerifier(chains).verifyTransaction(jws).signedDate == date(ms: signed))
    }

    @Test func missingSignedDateFallsBackToNow() async throws {
        let chains = try await Chains.get()
        let current = try chains.main.sign(payload: transaction(["signedDate": NSNull()]))
        #expect(try testVerifier(chains).verifyTransaction(current).signedDate == nil)
        let expired = try chains.expiredLeaf.sign(payload: transaction(["signedDate": NSNull()]))
        expectCode(.expiredAtSigningDate) { _ = try testVerifier(chains).verifyTransaction(expired) }
        let text = try chains.main.sign(payload: transaction(["signedDate": "yesterday"]))
        expectCode(.invalidFormat) { _ = try testVerifier(chains).verifyTransaction(text) }
    }

    @Test func missingLeafOrIntermediateMarkerOIDIsRefused() async throws {
        let chains = try await Chains.get()
        #expect(!chains.leafWithoutOID.leaf.hasExtension(oid: AppleTestChain.leafMarkerOID))
        #expect(chains.main.leaf.hasExtension(oid: AppleTestChain.leafMarkerOID))
        expectCode(.missingMarkerOID) { _ = try testVerifier(chains).verifyTransaction(chains.leafWithoutOID.sign(payload: transaction())) }
        expectCode(.missingMarkerOID) { _ = try testVerifier(chains).verifyTransaction(chains.intermediateWithoutOID.sign(payload: transaction())) }
    }
}

@Suite struct NotificationAndRenewalTests {
    func renewal(_ chains: Chains, environment: String = "Sandbox") throws -> String {
        try chains.main.sign(payload: [
            "originalTransactionId": "2000000000000001", "autoRenewStatus": 1, "autoRenewProductId": "com.example.gatehouse.basic",
            "productId": "com.example.gatehouse.pro", "expirationIntent": 2, "isInBillingRetryPeriod": true,
            "gracePeriodExpiresDate": 1_703_000_000_500, "renewalDate": 1_702_592_000_789, "environment": environment,
            "signedDate": nowMilliseconds(),
        ])
    }

    func notification(
        _ chains: Chains, environment: String, appAppleId: Int64, nested: [String: Any] = [:], signedDate: Int64 = nowMilliseconds()
    ) throws -> String {
        var data: [String: Any] = ["bundleId": bundleId, "appAppleId": appAppleId, "environment": environment, "status": 1]
        data.merge(nested) { $1 }
        return try chains.main.sign(payload: [
            "notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": "0f8c0c8e-1f7e-4d0e-9b7a-4b8a2f1d9c11",
            "version": "2.0", "signedDate": signedDate, "data": data,
        ])
    }

    @Test func renewalInfoVerifiesAndDecodes() async throws {
        let chains = try await Chains.get()
        let info = try testVerifier(chains).verifyRenewalInfo(renewal(chains))
        #expect(info.originalTransactionId == "2000000000000001")
        #expect(info.autoRenewStatus == 1)
        #expect(info.autoRenewProductId == "com.example.gatehouse.basic")
        #expect(info.expirationIntent == 2)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.gracePeriodExpiresDate == date(ms: 1_703_000_000_500))
        #expect(info.renewalDate == date(ms: 1_702_592_000_789))
        #expect(info.environment == .sandbox)
        expectCode(.wrongEnvironment) { _ = try productionVerifierTrustingTestRoot(chains).verifyRenewalInfo(renewal(chains, environment: "Xcode")) }
    }

    @Test func notificationWithNestedSignedDataVerifiesAllLayers() async throws {
        let chains = try await Chains.get()
        let nested: [String: Any] = [
            "signedTransactionInfo": try chains.main.sign(payload: transaction()), "signedRenewalInfo": try renewal(chains),
        ]
        let signed = nowMilliseconds()
        let jws = try notification(chains, environment: "Sandbox", appAppleId: appAppleId, nested: nested, signedDate: signed)
        let verified = try testVerifier(chains).verifyNotificationContents(jws)
        #expect(verified.notification.notificationType == "SUBSCRIBED")
        #expect(verified.notification.subtype == "INITIAL_BUY")
        #expect(verified.notification.notificationUUID == "0f8c0c8e-1f7e-4d0e-9b7a-4b8a2f1d9c11")
        #expect(verified.notification.version == "2.0")
        #expect(verified.notification.signedDate == date(ms: signed))
        #expect(verified.notification.data?.bundleId == bundleId)
        #expect(verified.notification.data?.appAppleId == appAppleId)
        #expect(verified.notification.data?.environment == .sandbox)
        #expect(verified.notification.data?.status == 1)
        #expect(verified.transaction?.transactionId == "2000000111111111")
        #expect(verified.renewalInfo?.autoRenewStatus == 1)
    }

    @Test func tamperedOrForeignNestedTransactionIsRefused() async throws {
        let chains = try await Chains.get()
        let foreign = try notification(
            chains, environment: "Sandbox", appAppleId: appAppleId,
            nested: ["signedTransactionInfo": try chains.attacker.sign(payload: transaction())])
        expectCode(.untrustedChain) { _ = try testVerifier(chains).verifyNotificationContents(foreign) }
        let crossEnvironment = try notification(
            chains, environment: "Production", appAppleId: appAppleId,
            nested: ["signedTransactionInfo": try chains.main.sign(payload: transaction(["environment": "Sandbox"]))])
        expectCode(.wrongEnvironment) { _ = try testVerifier(chains).verifyNotificationContents(crossEnvironment) }
    }

    @Test func productionNotificationForAnotherAppIsRefused() async throws {
        let chains = try await Chains.get()
        let production = try notification(chains, environment: "Production", appAppleId: 42)
        expectCode(.wrongAppAppleId) { _ = try testVerifier(chains).verifyNotification(production) }
        // Sandbox notifications carry no reliable app id, as in Apple's libraries.
        let sandbox = try notification(chains, environment: "Sandbox", appAppleId: 42)
        #expect(try testVerifier(chains).verifyNotification(sandbox).data?.appAppleId == 42)
        let unconfigured = try SignedDataVerifier(bundleId: bundleId, appAppleId: nil, allowsTestEnvironments: true, extraTrustedRootPEM: chains.main.rootPEM)
        #expect(try unconfigured.verifyNotification(production).notificationType == "SUBSCRIBED")
    }

    @Test func notificationForAnotherBundleOrWithoutAppIsRefused() async throws {
        let chains = try await Chains.get()
        let other = try chains.main.sign(payload: [
            "notificationType": "TEST", "notificationUUID": "u1",
            "data": ["bundleId": "com.other.app", "environment": "Sandbox"],
        ])
        expectCode(.wrongBundleId) { _ = try testVerifier(chains).verifyNotification(other) }
        let none = try chains.main.sign(payload: ["notificationType": "TEST", "notificationUUID": "u2"])
        expectCode(.wrongBundleId) { _ = try testVerifier(chains).verifyNotification(none) }
        let summary = try chains.main.sign(payload: [
            "notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY", "notificationUUID": "u3",
            "summary": ["bundleId": bundleId, "environment": "Sandbox", "appAppleId": appAppleId],
        ])
        #expect(try testVerifier(chains).verifyNotification(summary).data == nil)
    }
}
