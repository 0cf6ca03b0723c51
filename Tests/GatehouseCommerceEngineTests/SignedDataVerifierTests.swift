import Foundation
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine
import GatehouseFormats

@Suite struct SignedDataVerifierTests {
    @Test func pinnedAppleRootPassesItsFingerprintCheckAndAnotherCertificateFails() async throws {
        let root = try AppleRootCertificate.pinned()
        #expect(root.subjectCommonName == "Apple Root CA - G3")
        #expect(AppleRootCertificate.fingerprint(of: root) == AppleRootCertificate.sha256Fingerprint)
        let chains = try await Chains.get()
        expectCode(.untrustedChain) { _ = try AppleRootCertificate.pinned(pem: chains.main.rootPEM) }
    }

    @Test func validTransactionVerifiesAndDecodesEveryField() async throws {
        let chains = try await Chains.get()
        let signed = nowMilliseconds()
        let jws = try chains.main.sign(payload: transaction([
            "webOrderLineItemId": "2000000012345678", "subscriptionGroupIdentifier": "21000001",
            "type": "Auto-Renewable Subscription", "purchaseDate": 1_700_000_000_123, "originalPurchaseDate": 1_690_000_000_456,
            "expiresDate": 1_702_592_000_789, "revocationDate": 1_701_000_000_001, "revocationReason": 1,
            "revocationType": "REFUND_FULL", "isUpgraded": false, "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138",
            "inAppOwnershipType": "PURCHASED", "signedDate": signed, "offerType": 1, "offerDiscountType": "FREE_TRIAL",
            "transactionReason": "PURCHASE", "quantity": 2, "price": 9990, "currency": "EUR", "storefront": "FRA",
            "someFutureField": ["nested": true],
        ]))
        let payload = try testVerifier(chains).verifyTransaction(jws)
        #expect(payload.transactionId == "2000000111111111")
        #expect(payload.originalTransactionId == "2000000000000001")
        #expect(payload.webOrderLineItemId == "2000000012345678")
        #expect(payload.productId == "com.example.gatehouse.pro")
        #expect(payload.subscriptionGroupIdentifier == "21000001")
        #expect(payload.type == "Auto-Renewable Subscription")
        #expect(payload.purchaseDate == date(ms: 1_700_000_000_123))
        #expect(payload.originalPurchaseDate == date(ms: 1_690_000_000_456))
        #expect(payload.expiresDate == date(ms: 1_702_592_000_789))
        #expect(payload.revocationDate == date(ms: 1_701_000_000_001))
        #expect(payload.purchaseDate.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == 1_700_000_000_123)
        #expect(payload.revocationReason == 1)
        #expect(payload.revocationType == "REFUND_FULL")
        #expect(payload.isUpgraded == false)
        #expect(payload.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(payload.inAppOwnershipType == "PURCHASED")
        #expect(payload.environment == .sandbox)
        #expect(payload.bundleId == bundleId)
        #expect(payload.signedDate == date(ms: signed))
        #expect(payload.offerType == 1)
        #expect(payload.offerDiscountType == "FREE_TRIAL")
        #expect(payload.transactionReason == "PURCHASE")
        #expect(payload.quantity == 2)
        #expect(payload.price == 9990)
        #expect(payload.currency == "EUR")
        #expect(payload.storefront == "FRA")
        #expect(payload.offerIdentifier == nil)
        #expect(payload.revocationPercentage == nil)
    }

    @Test func tamperedPayloadIsABadSignature() async throws {
        let chains = try await Chains.get()
        let jws = try chains.main.sign(payload: transaction())
        let forged = try JSONSerialization.data(withJSONObject: transaction(["productId": "com.example.gatehouse.lifetime"]))
        expectCode(.badSignature) { _ = try testVerifier(chains).verifyTransaction(replacingSegment(1, of: jws, with: Base64URL.encode(forged))) }
        // The right chain in the header, but signed by someone else's key.
        let otherKey = try chains.attacker.sign(payload: transaction(), x5c: chains.main.x5c)
        expectCode(.badSignature) { _ = try testVerifier(chains).verifyTransaction(otherKey) }
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384"])
    func algorithmOtherThanES256IsRefused(alg: String) async throws {
        let chains = try await Chains.get()
        let jws = try chains.main.sign(payload: transaction())
        let header = try JSONSerialization.data(withJSONObject: ["alg": alg, "x5c": chains.main.x5c])
        expectCode(.invalidAlgorithm) { _ = try testVerifier(chains).verifyTransaction(replacingSegment(0, of: jws, with: Base64URL.encode(header))) }
    }

    @Test func malformedInputIsInvalidFormat() async throws {
        let chains = try await Chains.get()
        let jws = try chains.main.sign(payload: transaction())
        let verifier = try testVerifier(chains)
        for input in ["", "a.b", jws + ".extra", "!!.??.##", replacingSegment(1, of: jws, with: Base64URL.encode(Array("[1,2]".utf8)))] {
            expectCode(.invalidFormat) { _ = try verifier.verifyTransaction(input) }
        }
    }

    @Test func chainOfTwoOrFourOrNoneIsInvalidChainLength() async throws {
        let chains = try await Chains.get()
        let x5c = chains.main.x5c
        for entries in [Array(x5c.prefix(2)), x5c + [x5c[2]], [x5c[0]], []] {
            let jws = try chains.main.sign(payload: transaction(), x5c: entries)
            expectCode(.invalidChainLength) { _ = try testVerifier(chains).verifyTransaction(jws) }
        }
        let noX5C = try JWS.signES256(payload: JSONSerialization.data(withJSONObject: transaction()), privateKey: chains.main.leafKey)
        expectCode(.invalidChainLength) { _ = try testVerifier(chains).verifyTransaction(noX5C) }
    }

    @Test func pemOrBase64URLEntriesInX5CAreInvalidCertificates() async throws {
        let chains = try await Chains.get()
        let x5c = chains.main.x5c
        let pem = [chains.main.leaf.pemRepresentation, x5c[1], x5c[2]]
        expectCode(.invalidCertificate) { _ = try testVerifier(chains).verifyTransaction(chains.main.sign(payload: transaction(), x5c: pem)) }
        let url = Base64URL.encode(chains.main.leaf.derRepresentation)
        try #require(url != x5c[0])
        expectCode(.invalidCertificate) {
            _ = try testVerifier(chains).verifyTransaction(chains.main.sign(payload: transaction(), x5c: [url, x5c[1], x5c[2]]))
        }
    }

    @Test func wrongBundleIdIsRefused() async throws {
        let chains = try await Chains.get()
        let jws = try chains.main.sign(payload: transaction(["bundleId": "com.other.app"]))
        expectCode(.wrongBundleId) { _ = try testVerifier(chains).verifyTransaction(jws) }
        let missing = try chains.main.sign(payload: transaction(["bundleId": NSNull()]))
        expectCode(.wrongBundleId) { _ = try testVerifier(chains).verifyTransaction(missing) }
    }

    @Test(arguments: ["Xcode", "LocalTesting"])
    func testEnvironmentsOnlyForTenantsThatAllowThem(environment: String) async throws {
        let chains = try await Chains.get()
        let jws = try chains.main.sign(payload: transaction(["environment": environment]))
        expectCode(.wrongEnvironment) { _ = try productionVerifierTrustingTestRoot(chains).verifyTransaction(jws) }
        #expect(try testVerifier(chains).verifyTransaction(jws).environment.rawValue == environment)
    }

    @Test func productionAndSandboxAreAcceptedAndUnknownEnvironmentsAreNot() async throws {
        let chains = try await Chains.get()
        let production = try productionVerifierTrustingTestRoot(chains)
        for environment in ["Production", "Sandbox"] {
            let jws = try chains.main.sign(payload: transaction(["environment": environment]))
            #expect(try production.verifyTransaction(jws).environment.rawValue == environment)
        }
        for environment: Any in ["production", "Staging", NSNull(), 1] {
            let jws = try chains.main.sign(payload: transaction(["environment": environment]))
            expectCode(environment is Int ? .invalidFormat : .wrongEnvironment) { _ = try testVerifier(chains).verifyTransaction(jws) }
        }
    }

    @Test func productionTenantRefusesAnExtraRootAtInit() async throws {
        let chains = try await Chains.get()
        expectCode(.invalidConfiguration) {
            _ = try SignedDataVerifier(bundleId: bundleId, appAppleId: appAppleId, allowsTestEnvironments: false, extraTrustedRootPEM: chains.main.rootPEM)
        }
        let production = try SignedDataVerifier(bundleId: bundleId, appAppleId: appAppleId, allowsTestEnvironments: false, extraTrustedRootPEM: nil)
        #expect(production.trustedRoots.count == 1)
        // Without the extra root, the test chain is not Apple's and is refused.
        expectCode(.untrustedChain) { _ = try production.verifyTransaction(chains.main.sign(payload: transaction())) }
        expectCode(.invalidConfiguration) {
            _ = try SignedDataVerifier(bundleId: bundleId, appAppleId: nil, allowsTestEnvironments: true, extraTrustedRootPEM: "not a PEM")
        }
    }
}
