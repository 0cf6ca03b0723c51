import Foundation
import GatehouseCore
import GatehouseDatabase

extension CommerceEngine {
    /// Grants a one-time product's credits once per order (the token when a test order has
    /// none), then consumes it so the buyer can buy it again. A purchase tagged with another
    /// account is that account's, unless the accounts are one person's or the other was deleted.
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
        let outcome = try await grantCredits(tenantID: tenantID, accountID: accountID, credit) { db in
            if try db.queryOne("SELECT voided_at FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, hash)?
                .get("voided_at", as: Date?.self) != nil
            {
                throw PurchaseError(.purchaseRevoked, .revoked)  // Google voided it before it was reported
            }
            try db.execute(
                """
                INSERT INTO commerce_google_tokens (tenant_id, token_hash, purchase_token, kind, product_id, settle, settled_at, granted_at, created_at)
                VALUES (?, ?, ?, 'product', ?, 'consume', ?, ?, ?)
                ON CONFLICT (tenant_id, token_hash) DO UPDATE SET settle = 'consume',
                  settled_at = COALESCE(commerce_google_tokens.settled_at, excluded.settled_at),
                  granted_at = COALESCE(commerce_google_tokens.granted_at, excluded.granted_at)
                """,
                [.text(tenantID), .text(hash), .text(token), .text(productID), consumed ? now.sqlValue : .null, now.sqlValue, now.sqlValue])
        }
        await settleGooglePurchase(tenantID: tenantID, tokenHash: hash, connection: connection)
        return outcome
    }

    /// Acknowledges a granted subscription, or consumes a granted product, once: the caller
    /// that claims the token calls Google; a failure leaves it for the sweeper. Never throws:
    /// the grant stands whether or not Google heard of it yet.
    func settleGooglePurchase(tenantID: String, tokenHash: String, connection: GooglePlayConnection) async {
        let now = environment.clock.now
        let claim: (settle: String, productID: String?, token: String)?
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
                        "SELECT settle, product_id, purchase_token FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, tokenHash)
                else { return nil }
                return (try row.get("settle"), try row.get("product_id"), try row.get("purchase_token"))
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
        _ = try? await database.write { db in
            if failed {
                // The claim stays as the time of the attempt: retries wait for it to lapse, and the sweeper backs off further.
                try db.execute(
                    "UPDATE commerce_google_tokens SET settle_failures = settle_failures + 1 WHERE tenant_id = ? AND token_hash = ?", tenantID, tokenHash)
            } else {
                try db.execute(
                    "UPDATE commerce_google_tokens SET settle_claimed_at = NULL, settled_at = ? WHERE tenant_id = ? AND token_hash = ?",
                    done, tenantID, tokenHash)
            }
        }
    }

    /// How long a claim to settle a token holds before another caller may take it (a node that died mid-call).
    static let settleClaimLifetime: TimeInterval = 120
}
