import Foundation
import GatehouseCrypto
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// Every chain the tests need, generated once per process (about 30 `openssl` runs).
struct Chains: Sendable {
    /// The tenant's test chain, trusted through `extraTrustedRootPEM`.
    let main: AppleTestChain
    /// A complete chain under a root nobody trusts (the attacker's).
    let attacker: AppleTestChain
    /// Main root and intermediate, leaf without 1.2.840.113635.100.6.11.1.
    let leafWithoutOID: AppleTestChain
    /// Main root, intermediate without 1.2.840.113635.100.6.2.1.
    let intermediateWithoutOID: AppleTestChain
    /// Main root and intermediate, leaf valid from two years ago to one year ago.
    let expiredLeaf: AppleTestChain

    static let shared = Task<Chains, any Error> {
        let main = try await AppleTestChain.generate()
        let now = Date()
        return try await Chains(
            main: main,
            attacker: AppleTestChain.generate(),
            leafWithoutOID: AppleTestChain.generate(.init(leafMarker: false), under: main, reuseIntermediate: true),
            intermediateWithoutOID: AppleTestChain.generate(.init(intermediateMarker: false), under: main),
            expiredLeaf: AppleTestChain.generate(
                .init(leafNotBefore: now.addingTimeInterval(-730 * 86_400), leafNotAfter: now.addingTimeInterval(-365 * 86_400)),
                under: main, reuseIntermediate: true)
        )
    }

    static func get() async throws -> Chains { try await shared.value }
}

let bundleId = AppleTestApp.bundleId
let appAppleId = AppleTestApp.appAppleId

/// Now in whole milliseconds, as Apple writes `signedDate`.
func nowMilliseconds() -> Int64 { AppleTestApp.nowMilliseconds() }

/// The date Apple's milliseconds denote.
func date(ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

/// A test tenant: trusts Apple's root plus `chains.main`'s root, accepts test environments.
func testVerifier(_ chains: Chains) throws -> SignedDataVerifier {
    try SignedDataVerifier(
        bundleId: bundleId, appAppleId: appAppleId, allowsTestEnvironments: true, extraTrustedRootPEM: chains.main.rootPEM)
}

/// A production-mode verifier that nevertheless trusts the test root, so claim checks can be
/// reached (only the internal initializer allows this pairing).
func productionVerifierTrustingTestRoot(_ chains: Chains) throws -> SignedDataVerifier {
    try SignedDataVerifier(
        bundleId: bundleId, appAppleId: appAppleId, allowsTestEnvironments: false,
        trustedRoots: [AppleRootCertificate.pinned(), chains.main.root])
}

/// A minimal transaction payload; `overrides` replace or add fields (NSNull removes one).
func transaction(_ overrides: [String: Any] = [:]) -> [String: Any] { AppleTestApp.transaction(overrides) }

/// Expects `body` to throw an `AppleVerificationError` with `code`.
func expectCode(
    _ code: AppleVerificationError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as AppleVerificationError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Replaces segment `index` of a compact JWS.
func replacingSegment(_ index: Int, of jws: String, with segment: String) -> String {
    var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[index] = segment
    return parts.joined(separator: ".")
}
