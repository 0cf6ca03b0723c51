import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// Apple retries deliveries and apps report old copies, so facts about a purchase arrive in any
/// order; the state they leave must not depend on it (README: an older notification never
/// overwrites newer state).
@Suite struct FactOrderTests {
    /// Something Apple says about a monthly subscription, notified or reported.
    enum Fact: String, CaseIterable, CustomStringConvertible {
        case refund, revoke, refundReversed, reportRefunded, reportUnrefunded, expired, didRenew

        var description: String { rawValue }

        /// Whether the signed copy of the transaction this fact carries has a `revocationDate`.
        var copyIsRevoked: Bool { [.refund, .revoke, .reportRefunded].contains(self) }

        /// The notification type, or nil for a report through verify-purchase.
        var notificationType: String? {
            switch self {
            case .refund: "REFUND"
            case .revoke: "REVOKE"
            case .refundReversed: "REFUND_REVERSED"
            case .expired: "EXPIRED"
            case .didRenew: "DID_RENEW"
            case .reportRefunded, .reportUnrefunded: nil
            }
        }
    }

    /// Delivers `fact` about the single-transaction subscription `id`, everything in it signed at `ms`.
    static func deliver(_ fact: Fact, id: String, account: String, ms: Int64, _ h: CommerceHarness) async throws {
        var extra: [String: Any] = ["signedDate": ms]
        if fact.copyIsRevoked { extra.merge(["revocationDate": ms, "revocationReason": 0]) { $1 } }
        let copy = try h.subscription(id, original: id, extra: extra).jws
        if let type = fact.notificationType {
            _ = try await h.engine.receiveNotification(signedPayload: try h.notification(type, transaction: copy, signedAt: ms))
        } else {
            _ = try await h.report(copy, id: id, account: account)
        }
    }

    /// The state the rule promises after `older`, then `newer`, in either order: every fact carries
    /// a copy of the transaction, so the newer one decides the revocation; only EXPIRED and
    /// DID_RENEW speak about a lapse, so the newest of those decides it.
    static func expected(older: Fact, newer: Fact) -> EntitlementState.Status {
        if newer.copyIsRevoked { return .revoked }
        let lapse = [newer, older].first { $0 == .expired || $0 == .didRenew }
        return lapse == .expired ? .expired : .active
    }

    @Test(arguments: TestDatabaseKind.available)
    func everyPairOfFactsLeavesTheSameStateInEitherOrder(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let base = nowMilliseconds()
        var serial = 0
        for older in Fact.allCases {
            for newer in Fact.allCases where newer != older {
                for newerFirst in [false, true] {
                    serial += 1
                    let id = String(3_100_000_000_000_000 + serial)
                    let account = "account-\(serial)"
                    _ = try await h.report(try h.subscription(id, original: id, extra: ["signedDate": base - 10_000]).jws, id: id, account: account)
                    let deliveries = [(older, base + 1000), (newer, base + 2000)]
                    for (fact, ms) in newerFirst ? deliveries.reversed() : deliveries {
                        try await Self.deliver(fact, id: id, account: account, ms: ms, h)
                    }
                    #expect(try await h.status(account) == Self.expected(older: older, newer: newer),
                            "\(older) signed before \(newer), \(newerFirst ? "newer" : "older") delivered first")
                }
            }
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aLateRefundDoesNotUndoALaterReversal(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let t = nowMilliseconds()
        let bought = try h.subscription("3000000000000001", extra: ["signedDate": t])
        _ = try await h.report(bought.jws, id: "3000000000000001", account: "alice")
        let reversal = try h.subscription("3000000000000001", extra: ["signedDate": t + 2000])
        let reversed = try h.notification("REFUND_REVERSED", transaction: reversal.jws, signedAt: t + 2000)
        #expect(try await h.engine.receiveNotification(signedPayload: reversed) == .applied)
        // Apple's retry of the refund the reversal answered, with its own notificationUUID.
        let refunded = try h.subscription("3000000000000001", extra: ["signedDate": t + 1000, "revocationDate": t + 1000, "revocationReason": 0])
        let refund = try h.notification("REFUND", transaction: refunded.jws, signedAt: t + 1000)
        #expect(try await h.engine.receiveNotification(signedPayload: refund) == .applied)
        #expect(try await h.status("alice") == .active)
        // Nor does the app reporting the refunded copy afterwards.
        _ = try await h.report(refunded.jws, id: "3000000000000001", account: "alice")
        #expect(try await h.status("alice") == .active)
        // A refund signed after the reversal does end access.
        let again = try h.subscription("3000000000000001", extra: ["signedDate": t + 3000, "revocationDate": t + 3000, "revocationReason": 0])
        #expect(try await h.engine.receiveNotification(signedPayload: try h.notification("REFUND", transaction: again.jws, signedAt: t + 3000)) == .applied)
        #expect(try await h.status("alice") == .revoked)
    }

    @Test(arguments: TestDatabaseKind.available)
    func creditRefundsAndReversalsFollowTheSameRule(_ kind: TestDatabaseKind) async throws {
        let h = try await CommerceHarness(kind)
        defer { h.close() }
        let base = nowMilliseconds()
        var serial = 0
        for (older, newer) in [("REFUND", "REFUND_REVERSED"), ("REFUND_REVERSED", "REFUND")] {
            for newerFirst in [false, true] {
                serial += 1
                let id = String(3_200_000_000_000_000 + serial)
                let account = "account-\(serial)"
                var payload: [String: Any] = [
                    "transactionId": id, "originalTransactionId": id, "productId": CommerceHarness.creditsProduct, "bundleId": bundleId,
                    "environment": "Sandbox", "type": "Consumable", "quantity": 2, "signedDate": base - 10_000,
                ]
                #expect(try await h.report(try h.chain.sign(payload: payload), id: id, product: CommerceHarness.creditsProduct, account: account)
                    == .creditPackage(creditsGranted: 200))
                let deliveries = [(older, base + 1000), (newer, base + 2000)]
                for (type, ms) in newerFirst ? deliveries.reversed() : deliveries {
                    payload["signedDate"] = ms
                    payload["revocationDate"] = type == "REFUND" ? ms : nil
                    _ = try await h.engine.receiveNotification(
                        signedPayload: try h.notification(type, transaction: try h.chain.sign(payload: payload), signedAt: ms))
                }
                let wallet = try await h.engine.wallet(tenantID: h.tenantID, accountID: account)["WALLET"]
                #expect(wallet == (newer == "REFUND" ? 0 : 200), "\(older) signed before \(newer), \(newerFirst ? "newer" : "older") first")
            }
        }
    }
}
