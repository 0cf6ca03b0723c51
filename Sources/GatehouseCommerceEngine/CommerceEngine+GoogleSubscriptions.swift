import Foundation
import GatehouseCore
import GatehouseDatabase

/// Where a purchase token stands in its `linkedPurchaseToken` chain, as recorded.
struct GoogleChainPosition {
    let tokenHash: String
    /// A later token names this one as replaced: its grants give nothing any more.
    let retired: Bool
    /// The holder of the nearest earlier token of the chain that has one: the new token's owner.
    let inheritedOwner: String?
    /// When Google said the purchase was voided: its grants are revoked from then.
    let voidedAt: Date?
}

/// A line item's entitlement as Google states it, in the columns of `commerce_subscriptions`.
struct GoogleLineState: Equatable {
    var expiresAt: Date
    var graceExpiresAt: Date?
    var billingIssueAt: Date?
    var endedAt: Date?
    var autoRenew: Bool?

    /// ACTIVE gives access until the item's expiry; CANCELED too, without renewing;
    /// IN_GRACE_PERIOD until the expiry Google extended to the grace's end, flagged as a
    /// billing issue; ON_HOLD none, still a billing issue Google may recover; PAUSED, EXPIRED,
    /// PENDING and PENDING_PURCHASE_CANCELED none.
    init(state: String, item: PlaySubscription.LineItem, readAt: Date) {
        let expiry = item.expiry ?? readAt
        autoRenew = item.autoRenewing
        switch state {
        case "ACTIVE":
            expiresAt = expiry
        case "CANCELED":
            expiresAt = expiry
            autoRenew = false
        case "IN_GRACE_PERIOD":
            expiresAt = min(expiry, readAt)
            graceExpiresAt = expiry
            billingIssueAt = readAt
        case "ON_HOLD":
            expiresAt = min(expiry, readAt)
            billingIssueAt = readAt
        default:
            expiresAt = min(expiry, readAt)
            endedAt = readAt
        }
    }

    /// States in which nothing was paid yet: no grant, nothing to acknowledge, no chain retired.
    static func isUnpaid(_ state: String) -> Bool { state == "PENDING" || state == "PENDING_PURCHASE_CANCELED" }
}

extension CommerceEngine {
    /// Reads a subscription token from Google: a test purchase is refused on production.
    func readGoogleSubscription(tenantID: String, connection: GooglePlayConnection, token: String) async throws -> PlaySubscription {
        let purchase = try await askGoogle(tenantID: tenantID) { try await connection.api.subscription(purchaseToken: token) }
        if purchase.isTest, connection.production { throw PurchaseError(.purchaseInvalid, .google(.testPurchase)) }
        return purchase
    }

    /// Links each line item of a subscription token whose product is one of the tenant's plans
    /// to `holder` (the reported product first), then acknowledges the purchase.
    func linkGoogleSubscription(
        tenantID: String, holder: String, connection: GooglePlayConnection, productID: String, token: String, plans: [Plan],
        transfer: TransferPolicy, purchase known: PlaySubscription? = nil
    ) async throws -> PurchaseOutcome {
        let purchase: PlaySubscription
        if let known { purchase = known } else { purchase = try await readGoogleSubscription(tenantID: tenantID, connection: connection, token: token) }
        let readAt = environment.clock.now
        guard let reportedItem = purchase.lineItems.first(where: { $0.productID == productID }) else {
            throw PurchaseError(.purchaseInvalid, .productMismatch)
        }
        let items = [reportedItem] + purchase.lineItems.filter { $0.productID != productID }
        let tagged = try await self.holder(taggedWith: purchase.obfuscatedAccountID, tenantID: tenantID)
        var reported: PlanLink?
        for item in items {
            guard let plan = Self.plan(for: item, in: plans) else { continue }
            let record: @Sendable (any DatabaseConnection, String, Date) throws -> Subscription = { db, id, now in
                try Self.recordGoogleLine(
                    db, tenantID: tenantID, token: token, purchase: purchase, item: item, plan: plan, readAt: readAt, tag: tagged,
                    newID: id, now: now)
            }
            let chain = GooglePurchaseToken.lineKey(GooglePurchaseToken.hash(token), productID: item.productID)
            do {
                let link = try await linkSubscription(tenantID: tenantID, holder: holder, chain: chain, transfer: transfer, record: record)
                if item.productID == productID { reported = link }
            } catch let error as PurchaseError where error.code == .linkedToAnotherAccount && item.productID != productID {
                continue  // an add-on held elsewhere stays there; the reported plan decided the answer
            }
        }
        guard let reported else { throw PurchaseError(.productUnknown, .productNotSold) }
        await settleGooglePurchase(tenantID: tenantID, tokenHash: GooglePurchaseToken.hash(token), connection: connection)
        return .serviceEntitlement(reported.subscription.state(at: environment.clock.now), transferred: reported.transferred)
    }

    /// The plan a line item buys: the one naming its base plan, else the one naming only its subscription.
    static func plan(for item: PlaySubscription.LineItem, in plans: [Plan]) -> Plan? {
        let ofProduct = plans.filter { $0.google?.subscriptionID == item.productID }
        return ofProduct.first { $0.google?.basePlanID != nil && $0.google?.basePlanID == item.basePlanID }
            ?? ofProduct.first { $0.google?.basePlanID == nil }
    }

    /// Upserts a line item's row from Google's state read at `readAt`: a read older than the
    /// row's last one changes nothing; a revocation stays; a retired token's grant stays ended.
    /// A new row starts with the owner of the token it replaced, else `tag`, the holder the
    /// purchase is tagged with.
    static func recordGoogleLine(
        _ db: any DatabaseConnection, tenantID: String, token: String, purchase: PlaySubscription, item: PlaySubscription.LineItem, plan: Plan,
        readAt: Date, tag: String?, newID: String, now: Date
    ) throws -> Subscription {
        let position = try recordGoogleToken(
            db, tenantID: tenantID, token: token, purchase: purchase, productID: item.productID, now: now)
        var state = GoogleLineState(state: purchase.state, item: item, readAt: readAt)
        if position.retired { state.endedAt = min(state.endedAt ?? readAt, readAt) }
        let chain = GooglePurchaseToken.lineKey(position.tokenHash, productID: item.productID)
        let environment = purchase.isTest ? AppStoreEnvironment.sandbox : .production
        let productType = item.autoRenewing == nil ? "Non-Renewing Subscription" : "Auto-Renewable Subscription"
        let order = item.latestOrderID ?? position.tokenHash
        if let row = try db.queryOne(
            "SELECT * FROM commerce_subscriptions WHERE tenant_id = ? AND original_transaction_id = ?" + db.dialect.forUpdate, tenantID, chain)
        {
            let stored = try Subscription(row)
            guard readAt >= (try row.get("last_event_at", as: Date.self)) else { return stored }
            if position.retired, let ended = stored.endedAt { state.endedAt = min(ended, state.endedAt ?? ended) }
            try db.execute(
                """
                UPDATE commerce_subscriptions SET plan_id = ?, platform_product_id = ?, product_type = ?, environment = ?, latest_transaction_id = ?,
                  expires_at = ?, grace_expires_at = ?, billing_issue_at = ?, ended_at = ?, auto_renew = ?, last_event_at = ?, updated_at = ?,
                  revoked_at = COALESCE(revoked_at, ?)
                WHERE id = ?
                """,
                [.text(plan.productId), .text(item.productID), .text(productType), .text(environment.rawValue), .text(order),
                 state.expiresAt.sqlValue, state.graceExpiresAt.sqlValue, state.billingIssueAt.sqlValue, state.endedAt.sqlValue,
                 state.autoRenew.sqlValue, readAt.sqlValue, now.sqlValue, position.voidedAt.sqlValue, .text(stored.id)])
            return try subscription(db, id: stored.id)
        }
        try db.execute(
            """
            INSERT INTO commerce_subscriptions (id, tenant_id, original_transaction_id, account_id, plan_id, platform_product_id, product_type,
              environment, ownership_type, latest_transaction_id, purchased_at, expires_at, grace_expires_at, billing_issue_at, ended_at,
              auto_renew, last_event_at, updated_at, revoked_at, store, google_token_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'PURCHASED', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'google', ?)
            """,
            [.text(newID), .text(tenantID), .text(chain), (position.inheritedOwner ?? tag).sqlValue, .text(plan.productId), .text(item.productID),
             .text(productType), .text(environment.rawValue), .text(order), readAt.sqlValue, state.expiresAt.sqlValue,
             state.graceExpiresAt.sqlValue, state.billingIssueAt.sqlValue, state.endedAt.sqlValue, state.autoRenew.sqlValue, readAt.sqlValue,
             now.sqlValue, position.voidedAt.sqlValue, .text(position.tokenHash)])
        return try subscription(db, id: newID)
    }

    /// Records a subscription token and the token it replaced. A paid token retires the one it
    /// names (its grants end now) whichever of the two was reported first; the walk back
    /// through earlier tokens finds the owner the chain already has. Marks the purchase for
    /// acknowledgement unless Google says it is acknowledged.
    static func recordGoogleToken(
        _ db: any DatabaseConnection, tenantID: String, token: String, purchase: PlaySubscription, productID: String, now: Date
    ) throws -> GoogleChainPosition {
        let hash = GooglePurchaseToken.hash(token)
        let paid = !GoogleLineState.isUnpaid(purchase.state)
        // After PENDING_PURCHASE_CANCELED the link names the subscription that still stands: nothing is replaced.
        let linked = paid ? purchase.linkedPurchaseToken.flatMap { $0 == token ? nil : $0 } : nil
        let linkedHash = linked.map(GooglePurchaseToken.hash)
        try db.execute(
            """
            INSERT INTO commerce_google_tokens (tenant_id, token_hash, purchase_token, kind, product_id, linked_token_hash, created_at)
            VALUES (?, ?, ?, 'subscription', ?, ?, ?)
            ON CONFLICT (tenant_id, token_hash) DO UPDATE SET product_id = excluded.product_id,
              linked_token_hash = COALESCE(excluded.linked_token_hash, commerce_google_tokens.linked_token_hash)
            """,
            [.text(tenantID), .text(hash), .text(token), .text(productID), linkedHash.sqlValue, now.sqlValue])
        if paid {
            try db.execute(
                "UPDATE commerce_google_tokens SET settle = 'acknowledge', granted_at = COALESCE(granted_at, ?) WHERE tenant_id = ? AND token_hash = ?",
                now, tenantID, hash)
            if purchase.acknowledged {  // by the app, or an earlier call of ours whose answer was lost
                try db.execute(
                    "UPDATE commerce_google_tokens SET settled_at = COALESCE(settled_at, ?) WHERE tenant_id = ? AND token_hash = ?", now, tenantID, hash)
            }
        }
        if let linked, let linkedHash {
            try db.execute(
                """
                INSERT INTO commerce_google_tokens (tenant_id, token_hash, purchase_token, kind, replaced_by, created_at)
                VALUES (?, ?, ?, 'subscription', ?, ?)
                ON CONFLICT (tenant_id, token_hash) DO UPDATE SET replaced_by = excluded.replaced_by
                """,
                [.text(tenantID), .text(linkedHash), .text(linked), .text(hash), now.sqlValue])
            try db.execute(
                "UPDATE commerce_subscriptions SET ended_at = ?, updated_at = ? WHERE tenant_id = ? AND google_token_hash = ? AND (ended_at IS NULL OR ended_at > ?)",
                now, now, tenantID, linkedHash, now)
        }
        let recorded = try db.queryOne("SELECT replaced_by, voided_at FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, hash)
        let retired = try recorded?.get("replaced_by", as: String?.self) != nil
        var owner: String?
        var cursor = linkedHash
        var walked: Set<String> = [hash]
        while owner == nil, let step = cursor, walked.insert(step).inserted, walked.count <= 64 {
            owner = try db.queryOne(
                "SELECT account_id FROM commerce_subscriptions WHERE tenant_id = ? AND google_token_hash = ? AND account_id IS NOT NULL", tenantID, step)?
                .get("account_id")
            cursor = try db.queryOne(
                "SELECT linked_token_hash FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, step)?.get("linked_token_hash")
        }
        return GoogleChainPosition(tokenHash: hash, retired: retired, inheritedOwner: owner, voidedAt: try recorded?.get("voided_at"))
    }
}
