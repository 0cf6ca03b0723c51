import Foundation
import GatehouseCore
import GatehouseDatabase

extension CommerceEngine {
    /// Grants a one-time product's credits once per order (the token when a test order has
    /// none), then consumes it so the buyer can buy it again. A purchase tagged with another
    /// account is refused (409, no transfer: credits do not move) unless the two accounts are
    /// one person's or the tagged one was deleted.
    func grantGoogleCredits(
        tenantID: String, accountID: String, connection: GooglePlayConnection, package: CreditPackage, token: String
    ) async throws -> PurchaseOutcome {
        let productID = package.platformProductId
        let purchase = try await askGoogle(tenantID: tenantID) { try await connection.api.product(productID, purchaseToken: token) }
        let isTest = purchase.purchaseType == 0
        if isTest, connection.production { throw PurchaseError(.purchaseInvalid, .google(.testPurchase)) }
        switch purchase.purchaseState {
        case 0: break
        case 1: throw PurchaseError(.purchaseRevoked, .revoked)
        default: throw PurchaseError(.purchaseInvalid, .google(.pending))
        }
        if let tagged = try await holder(taggedWith: purchase.obfuscatedAccountID, tenantID: tenantID), tagged != accountID,
           (try await accounts?.relation(tenantID: tenantID, holder: tagged, reporter: accountID)) ?? .unrelated == .unrelated
        {
            throw PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.purchaseToAccount), canTransfer: false)
        }
        let hash = GooglePurchaseToken.hash(token)
        let now = environment.clock.now
        let credit = CreditPurchase(
            transactionID: purchase.orderID ?? GooglePurchaseToken.purchaseKey(hash), chain: GooglePurchaseToken.purchaseKey(hash),
            productID: productID, credits: package.credits * max(1, purchase.quantity), environment: isTest ? "Sandbox" : "Production",
            signedAt: nil, revocationAsOf: now, store: "google")
        let consumed = purchase.consumed
        let outcome = try await grantCredits(tenantID: tenantID, accountID: accountID, credit, first: { db in
            // The token's row first, as a void takes it: the two queue instead of deadlocking.
            try Self.lockGoogleToken(db, tenantID: tenantID, token: token, productID: productID, now: now)
            if try Self.googleVoid(db, tenantID: tenantID, tokenHash: hash) != nil {
                throw PurchaseError(.purchaseRevoked, .revoked)  // Google voided it before it was reported
            }
        }, then: { db in
            try Self.markGranted(db, tenantID: tenantID, tokenHash: hash, settle: "consume", settled: consumed, now: now)
        })
        await settleGooglePurchase(tenantID: tenantID, tokenHash: hash, connection: connection)
        return outcome
    }

    /// Acknowledges a granted subscription, or consumes a granted product, once: the caller
    /// that claims the token calls Google; a failure leaves it for the sweeper, which waits 2ⁿ
    /// minutes after the n-th (at most an hour). Never throws: the grant stands whether or not
    /// Google heard of it yet.
    func settleGooglePurchase(tenantID: String, tokenHash: String, connection: GooglePlayConnection) async {
        let now = environment.clock.now
        let claim: (settle: String, productID: String?, token: String, failures: Int)?
        do {
            claim = try await database.write { db in
                let taken = try db.execute(
                    """
                    UPDATE commerce_google_tokens SET settle_claimed_at = ?
                    WHERE tenant_id = ? AND token_hash = ? AND settle IS NOT NULL AND settled_at IS NULL
                      AND (settle_claimed_at IS NULL OR settle_claimed_at < ?)
                    """,
                    now, tenantID, tokenHash, now.addingTimeInterval(-Self.settleClaimLifetime))
                guard taken == 1,
                      let row = try db.queryOne(
                        "SELECT settle, product_id, purchase_token, settle_failures FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?",
                        tenantID, tokenHash)
                else { return nil }
                return (try row.get("settle"), try row.get("product_id"), try row.get("purchase_token"), try row.get("settle_failures"))
            }
        } catch {
            environment.logger.warning("google play settlement not claimed", ["tenant": tenantID, "error": "\(error)"])
            return
        }
        guard let claim else { return }
        var succeeded = true
        do {
            switch claim.settle {
            case "consume": try await connection.api.consumeProduct(claim.productID ?? "", purchaseToken: claim.token)
            default: try await connection.api.acknowledgeSubscription(claim.productID ?? "", purchaseToken: claim.token)
            }
        } catch {
            succeeded = false
            environment.logger.warning("google play \(claim.settle) failed; the sweeper retries", ["tenant": tenantID, "error": "\(error)"])
        }
        let (done, failed) = (environment.clock.now, !succeeded)
        let retry = done.addingTimeInterval(Self.settleBackoff(failures: claim.failures + 1))
        _ = try? await database.write { db in
            if failed {
                // The claim stays as the time of the attempt; the next is due after the backoff.
                try db.execute(
                    "UPDATE commerce_google_tokens SET settle_failures = settle_failures + 1, next_settle_at = ? WHERE tenant_id = ? AND token_hash = ?",
                    retry, tenantID, tokenHash)
            } else {
                try db.execute(
                    "UPDATE commerce_google_tokens SET settle_claimed_at = NULL, settled_at = ? WHERE tenant_id = ? AND token_hash = ?",
                    done, tenantID, tokenHash)
            }
        }
    }

    /// How long a claim to settle a token holds before another caller may take it (a node that died mid-call).
    static let settleClaimLifetime: TimeInterval = 120

    /// The wait after the n-th failed attempt: 2ⁿ minutes, at most an hour.
    static func settleBackoff(failures: Int) -> TimeInterval { min(60 * pow(2, Double(min(failures, 10))), 3600) }
}
