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
    /// When Google said an order of the token was voided, and which order (nil: the whole token).
    let voidedAt: Date?
    let voidedOrder: String?
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
    /// PENDING, PENDING_PURCHASE_CANCELED and any state Google adds later none.
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

    /// Whether the line gives access at `now`.
    func givesAccess(at now: Date) -> Bool { endedAt == nil && (now < expiresAt || graceExpiresAt.map { now < $0 } ?? false) }

    /// The states of a purchase that was paid: only these are granted, acknowledged, or retire
    /// the token they link (after PENDING_PURCHASE_CANCELED the link names the subscription
    /// that still stands).
    static let paid: Set<String> = ["ACTIVE", "CANCELED", "IN_GRACE_PERIOD", "ON_HOLD", "PAUSED", "EXPIRED"]
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
        let hash = GooglePurchaseToken.hash(token)
        var reported: PlanLink?
        for item in items {
            guard let plan = Self.plan(for: item, in: plans) else { continue }
            let record: @Sendable (any DatabaseConnection, String, Date) throws -> Subscription = { db, id, now in
                try Self.recordGoogleLine(
                    db, tenantID: tenantID, token: token, purchase: purchase, item: item, plan: plan, readAt: readAt, tag: tagged, newID: id, now: now)
            }
            let linked: @Sendable (any DatabaseConnection, Subscription, Date) throws -> Void = { db, held, now in
                try Self.grantedGoogleLine(db, tenantID: tenantID, tokenHash: hash, purchase: purchase, holder: held.accountId, now: now)
            }
            let chain = GooglePurchaseToken.lineKey(hash, productID: item.productID)
            do {
                let link = try await linkSubscription(tenantID: tenantID, holder: holder, chain: chain, transfer: transfer, record: record, linked: linked)
                if item.productID == productID { reported = link }
            } catch let error as PurchaseError where error.code == .linkedToAnotherAccount && item.productID != productID {
                continue  // an add-on held elsewhere stays there; the reported plan decided the answer
            }
        }
        guard let reported else { throw PurchaseError(.productUnknown, .productNotSold) }
        await settleGooglePurchase(tenantID: tenantID, tokenHash: hash, connection: connection)
        return .serviceEntitlement(reported.subscription.state(at: environment.clock.now), transferred: reported.transferred)
    }

    /// The plan a line item buys: the one naming its base plan, else the one naming only its subscription.
    static func plan(for item: PlaySubscription.LineItem, in plans: [Plan]) -> Plan? {
        let ofProduct = plans.filter { $0.google?.subscriptionID == item.productID }
        return ofProduct.first { $0.google?.basePlanID != nil && $0.google?.basePlanID == item.basePlanID }
            ?? ofProduct.first { $0.google?.basePlanID == nil }
    }

    /// A line of a paid purchase now has a holder: the purchase is granted (Google waits for
    /// its acknowledgement unless it says it has one), and tokens that replaced this one
    /// before anyone held them take the holder too.
    static func grantedGoogleLine(
        _ db: any DatabaseConnection, tenantID: String, tokenHash: String, purchase: PlaySubscription, holder: String?, now: Date
    ) throws {
        guard let holder, GoogleLineState.paid.contains(purchase.state) else { return }
        try markGranted(db, tenantID: tenantID, tokenHash: tokenHash, settle: "acknowledge", settled: purchase.acknowledged, now: now)
        var cursor = try db.queryOne(
            "SELECT replaced_by FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, tokenHash)?.get("replaced_by", as: String?.self)
        var walked: Set<String> = [tokenHash]
        while let step = cursor, walked.insert(step).inserted, walked.count <= 64 {
            try db.execute(
                "UPDATE commerce_subscriptions SET account_id = ?, updated_at = ? WHERE tenant_id = ? AND google_token_hash = ? AND account_id IS NULL",
                holder, now, tenantID, step)
            cursor = try db.queryOne(
                "SELECT replaced_by FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, step)?.get("replaced_by")
        }
    }

    /// Upserts a line item's row from Google's state read at `readAt`: a read older than the
    /// row's last one changes nothing; a revocation stays for the period it was about; a
    /// retired token's grant stays ended. A new row starts with the owner of the token it
    /// replaced, else `tag`, the holder the purchase is tagged with.
    static func recordGoogleLine(
        _ db: any DatabaseConnection, tenantID: String, token: String, purchase: PlaySubscription, item: PlaySubscription.LineItem, plan: Plan,
        readAt: Date, tag: String?, newID: String, now: Date
    ) throws -> Subscription {
        let position = try recordGoogleToken(db, tenantID: tenantID, token: token, purchase: purchase, productID: item.productID, now: now)
        var state = GoogleLineState(state: purchase.state, item: item, readAt: readAt)
        if position.retired { state.endedAt = min(state.endedAt ?? readAt, readAt) }
        let chain = GooglePurchaseToken.lineKey(position.tokenHash, productID: item.productID)
        let environment = purchase.isTest ? AppStoreEnvironment.sandbox : .production
        let productType = item.autoRenewing == nil ? "Non-Renewing Subscription" : "Auto-Renewable Subscription"
        let order = item.latestOrderID ?? position.tokenHash
        // A void of this period's order (or of the whole token) revokes it; one of an earlier renewal does not.
        let voided = position.voidedOrder == nil || position.voidedOrder == item.latestOrderID ? position.voidedAt : nil
        if let row = try db.queryOne(
            "SELECT * FROM commerce_subscriptions WHERE tenant_id = ? AND original_transaction_id = ?" + db.dialect.forUpdate, tenantID, chain)
        {
            let stored = try Subscription(row)
            guard readAt >= (try row.get("last_event_at", as: Date.self)) else { return stored }
            if position.retired, let ended = stored.endedAt { state.endedAt = min(ended, state.endedAt ?? ended) }
            // A newer period is a new order: what revoked the previous one does not apply to it.
            let newerPeriod = try item.latestOrderID.map { $0 != (try row.get("latest_transaction_id", as: String.self)) } ?? false
            let revoked = newerPeriod ? voided : (stored.revokedAt ?? voided)
            try db.execute(
                """
                UPDATE commerce_subscriptions SET plan_id = ?, platform_product_id = ?, product_type = ?, environment = ?, latest_transaction_id = ?,
                  expires_at = ?, grace_expires_at = ?, billing_issue_at = ?, ended_at = ?, auto_renew = ?, last_event_at = ?, updated_at = ?,
                  revoked_at = ?
                WHERE id = ?
                """,
                [.text(plan.productId), .text(item.productID), .text(productType), .text(environment.rawValue), .text(order),
                 state.expiresAt.sqlValue, state.graceExpiresAt.sqlValue, state.billingIssueAt.sqlValue, state.endedAt.sqlValue,
                 state.autoRenew.sqlValue, readAt.sqlValue, now.sqlValue, revoked.sqlValue, .text(stored.id)])
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
             now.sqlValue, voided.sqlValue, .text(position.tokenHash)])
        return try subscription(db, id: newID)
    }

    /// Records a subscription token (its row first, so every transaction on a token locks in
    /// the same order) and the token it replaced. A paid token retires the one it names (its
    /// grants end now) whichever of the two was reported first; the walk back through earlier
    /// tokens finds the owner the chain already has.
    static func recordGoogleToken(
        _ db: any DatabaseConnection, tenantID: String, token: String, purchase: PlaySubscription, productID: String, now: Date
    ) throws -> GoogleChainPosition {
        let hash = GooglePurchaseToken.hash(token)
        let linked = GoogleLineState.paid.contains(purchase.state) ? purchase.linkedPurchaseToken.flatMap { $0 == token ? nil : $0 } : nil
        let linkedHash = linked.map(GooglePurchaseToken.hash)
        try lockGoogleToken(db, tenantID: tenantID, token: token, productID: productID, now: now)
        if let linked, let linkedHash {
            try db.execute(
                "UPDATE commerce_google_tokens SET linked_token_hash = ? WHERE tenant_id = ? AND token_hash = ?", linkedHash, tenantID, hash)
            try db.execute(
                """
                INSERT INTO commerce_google_tokens (tenant_id, token_hash, purchase_token, replaced_by, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, token_hash) DO UPDATE SET replaced_by = excluded.replaced_by
                """,
                [.text(tenantID), .text(linkedHash), .text(linked), .text(hash), now.sqlValue])
            try db.execute(
                "UPDATE commerce_subscriptions SET ended_at = ?, updated_at = ? WHERE tenant_id = ? AND google_token_hash = ? AND (ended_at IS NULL OR ended_at > ?)",
                now, now, tenantID, linkedHash, now)
        }
        let recorded = try db.queryOne(
            "SELECT replaced_by, linked_token_hash, voided_at, voided_order FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, hash)
        var owner: String?
        var cursor: String? = try recorded?.get("linked_token_hash")
        var walked: Set<String> = [hash]
        while owner == nil, let step = cursor, walked.insert(step).inserted, walked.count <= 64 {
            owner = try db.queryOne(
                "SELECT account_id FROM commerce_subscriptions WHERE tenant_id = ? AND google_token_hash = ? AND account_id IS NOT NULL", tenantID, step)?
                .get("account_id")
            cursor = try db.queryOne(
                "SELECT linked_token_hash FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, step)?.get("linked_token_hash")
        }
        return GoogleChainPosition(
            tokenHash: hash, retired: try recorded?.get("replaced_by", as: String?.self) != nil, inheritedOwner: owner,
            voidedAt: try recorded?.get("voided_at"), voidedOrder: try recorded?.get("voided_order"))
    }
}
