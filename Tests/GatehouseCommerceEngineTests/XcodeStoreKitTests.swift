import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine
import GatehouseFormats

/// Xcode StoreKit testing: one self-signed certificate in `x5c`, no marker OIDs, fractional
/// millisecond dates. Accepted only by a non-production tenant that pinned that certificate.
@Suite struct XcodeStoreKitTests {
    /// The developer's Xcode certificate, and another Mac's; valid since before the signedDate
    /// of the Xcode transaction in the issue (October 2023).
    static let certificates = Task<(mine: XcodeTestCertificate, other: XcodeTestCertificate), any Error> {
        let since = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
        return (try await XcodeTestCertificate.generate(notBefore: since), try await XcodeTestCertificate.generate(notBefore: since))
    }

    /// An Xcode transaction as Xcode writes it: dates with a fraction of a millisecond.
    static func xcodeTransaction(
        id: String = "2000000111111111", product: String = "com.example.gatehouse.pro", environment: String = "Xcode",
        signedDate: String = "1697679936056.485"
    ) -> Data {
        Data(#"""
        {"transactionId":"\#(id)","originalTransactionId":"\#(id)","productId":"\#(product)","bundleId":"\#(bundleId)",
         "environment":"\#(environment)","type":"Consumable","quantity":1,"purchaseDate":1697679935000.25,
         "signedDate":\#(signedDate),"inAppOwnershipType":"PURCHASED"}
        """#.utf8)
    }

    static func verifier(xcode: XcodeTestCertificate?, chains: Chains) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            bundleId: bundleId, appAppleId: appAppleId, allowsTestEnvironments: true, extraTrustedRootPEM: chains.main.rootPEM,
            xcodeCertificatePEM: xcode?.pem)
    }

    @Test func anOptedInTestTenantAcceptsItsXcodeTransactions() async throws {
        let (mine, _) = try await Self.certificates.value
        let chains = try await Chains.get()
        let payload = try Self.verifier(xcode: mine, chains: chains).verifyTransaction(mine.sign(payload: Self.xcodeTransaction()))
        #expect(payload.environment == .xcode && payload.bundleId == bundleId)
        // Fractions of a millisecond are dropped, never rounded up.
        #expect(payload.signedDate == date(ms: 1_697_679_936_056))
        #expect(payload.purchaseDate == date(ms: 1_697_679_935_000))
    }

    @Test func anotherCertificateOrATamperedSignatureIsRefused() async throws {
        let (mine, other) = try await Self.certificates.value
        let chains = try await Chains.get()
        let verifier = try Self.verifier(xcode: mine, chains: chains)
        expectCode(.untrustedChain) { _ = try verifier.verifyTransaction(other.sign(payload: Self.xcodeTransaction())) }
        // The pinned certificate in x5c does not make another key's signature good.
        let forged = try JWS.signES256(
            headerJSON: Array(#"{"alg":"ES256","x5c":["\#(Base64.encode(mine.certificate.derRepresentation))"]}"#.utf8),
            payload: Self.xcodeTransaction(), privateKey: other.key)
        expectCode(.badSignature) { _ = try verifier.verifyTransaction(forged) }
        // Xcode's certificate signs Xcode data only: it cannot vouch for a sandbox purchase.
        expectCode(.wrongEnvironment) { _ = try verifier.verifyTransaction(mine.sign(payload: Self.xcodeTransaction(environment: "Sandbox"))) }
    }

    @Test func aTenantThatDidNotOptInRefusesThem() async throws {
        let (mine, _) = try await Self.certificates.value
        let chains = try await Chains.get()
        expectCode(.invalidChainLength) { _ = try Self.verifier(xcode: nil, chains: chains).verifyTransaction(mine.sign(payload: Self.xcodeTransaction())) }
    }

    @Test func aProductionTenantNeverAcceptsThem() async throws {
        let (mine, _) = try await Self.certificates.value
        let chains = try await Chains.get()
        expectCode(.invalidConfiguration) {
            _ = try SignedDataVerifier(bundleId: bundleId, appAppleId: nil, allowsTestEnvironments: false, extraTrustedRootPEM: nil, xcodeCertificatePEM: mine.pem)
        }
        // Even a production verifier built around the check, with the certificate, drops it.
        let production = SignedDataVerifier(
            bundleId: bundleId, appAppleId: nil, allowsTestEnvironments: false, trustedRoots: [try AppleRootCertificate.pinned(), chains.main.root],
            xcodeCertificate: mine.certificate)
        expectCode(.invalidChainLength) { _ = try production.verifyTransaction(mine.sign(payload: Self.xcodeTransaction())) }
        // And Xcode data through a trusted chain is still refused there.
        let chainSigned = try chains.main.sign(payload: Self.xcodeTransaction(signedDate: "\(nowMilliseconds()).5"))
        expectCode(.wrongEnvironment) { _ = try production.verifyTransaction(chainSigned) }
    }

    @Test func fractionalMillisecondsAreReadInAppleChainDataToo() async throws {
        let chains = try await Chains.get()
        let signed = Double(nowMilliseconds()) + 0.999
        let jws = try chains.main.sign(payload: Data(#"""
            {"transactionId":"1","originalTransactionId":"1","productId":"p","bundleId":"\#(bundleId)","environment":"Sandbox",
             "signedDate":\#(signed),"purchaseDate":1700000000123.9,"expiresDate":1702592000789.5,"revocationDate":1701000000001.01}
            """#.utf8))
        let payload = try testVerifier(chains).verifyTransaction(jws)
        #expect(payload.signedDate == date(ms: Int64(signed)))
        #expect(payload.purchaseDate == date(ms: 1_700_000_000_123) && payload.expiresDate == date(ms: 1_702_592_000_789))
        #expect(payload.revocationDate == date(ms: 1_701_000_000_001))
    }

    @Test(arguments: TestDatabaseKind.available)
    func theTenantPinsItsCertificateThroughTheStoreSettings(_ kind: TestDatabaseKind) async throws {
        let (mine, _) = try await Self.certificates.value
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let jws = try mine.sign(payload: Self.xcodeTransaction(id: "2000000222222222", product: CommerceHarness.creditsProduct))
        await #expect(throws: PurchaseError.self) {
            _ = try await h.report(jws, id: "2000000222222222", product: CommerceHarness.creditsProduct, account: "alice")
        }
        var patch = AppleConfigPatch()
        patch.xcodeCertificatePEM = .some("not a certificate")
        await #expect(throws: CommerceError.self) { _ = try await h.engine.updateAppleConfig(tenantID: h.tenantID, patch) }
        patch.xcodeCertificatePEM = .some(mine.pem)
        #expect(try await h.engine.updateAppleConfig(tenantID: h.tenantID, patch).xcodeCertificatePEM == mine.pem)
        #expect(try await h.engine.appleConfig(tenantID: h.tenantID)?.xcodeCertificatePEM == mine.pem)
        #expect(try await h.report(jws, id: "2000000222222222", product: CommerceHarness.creditsProduct, account: "alice")
            == .creditPackage(creditsGranted: 100))
        // While the certificate is pinned the tenant cannot become production.
        var production = AppleConfigPatch()
        production.production = true
        await #expect(throws: CommerceError.self) { _ = try await h.engine.updateAppleConfig(tenantID: h.tenantID, production) }
        patch.xcodeCertificatePEM = .some(nil)
        #expect(try await h.engine.updateAppleConfig(tenantID: h.tenantID, patch).xcodeCertificatePEM == nil)
        let again = try mine.sign(payload: Self.xcodeTransaction(id: "2000000333333333", product: CommerceHarness.creditsProduct))
        await #expect(throws: PurchaseError.self) {
            _ = try await h.report(again, id: "2000000333333333", product: CommerceHarness.creditsProduct, account: "alice")
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aProductionTenantCannotPinOne(_ kind: TestDatabaseKind) async throws {
        let (mine, _) = try await Self.certificates.value
        let h = try await CommerceHarness(kind, production: true)
        defer { h.close() }
        var patch = AppleConfigPatch()
        patch.xcodeCertificatePEM = .some(mine.pem)
        await #expect(throws: CommerceError(.validationFailed, .sandboxOnly("xcodeCertificatePEM"))) {
            _ = try await h.engine.updateAppleConfig(tenantID: h.tenantID, patch)
        }
        let jws = try mine.sign(payload: Self.xcodeTransaction(id: "2000000444444444", product: CommerceHarness.creditsProduct))
        await #expect(throws: PurchaseError.self) {
            _ = try await h.report(jws, id: "2000000444444444", product: CommerceHarness.creditsProduct, account: "alice")
        }
    }
}
