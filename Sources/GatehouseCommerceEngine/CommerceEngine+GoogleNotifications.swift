import Foundation
import GatehouseCore
import GatehouseDatabase

extension CommerceEngine {
    /// The tenant a push is for: the one whose package the notification names and whose push
    /// subscription's audience and service account the push's Google-signed token carries.
    /// nil when no tenant has the package and the token is still Google's own (the route takes
    /// it, or Pub/Sub would redeliver it forever); throws `PushTokenRefusal` otherwise.
    public func authorizeGooglePush(bearer: String?, packageName: String) async throws -> String? {
        guard let bearer, !bearer.isEmpty else { throw PushTokenRefusal.malformed }
        let configs = GooglePlayConfig.isPackageName(packageName) ? try await database.read { db in
            try db.query(
                "SELECT tenant_id, push_audience, push_service_account_email FROM commerce_google_play_configs WHERE package_name = ? ORDER BY tenant_id",
                [.text(packageName)])
        } : []
        if configs.isEmpty {
            // Only a push Google signed is taken unheard, so a stranger cannot tell which packages are set up.
            _ = try await pushTokens.verify(bearer, audience: nil, serviceAccountEmail: nil)
            return nil
        }
        var refusal: PushTokenRefusal?
        for row in configs {
            guard let audience: String = try row.get("push_audience"), let email: String = try row.get("push_service_account_email") else {
                refusal = refusal ?? .wrongAudience
                continue
            }
            do {
                _ = try await pushTokens.verify(bearer, audience: audience, serviceAccountEmail: email)
                return try row.get("tenant_id")
            } catch let refused as PushTokenRefusal {
                if refused == .certificatesUnavailable { throw refused }
                refusal = refusal ?? refused
            }
        }
        throw refusal ?? PushTokenRefusal.malformed
    }

    /// Acts on a notification once per Pub/Sub `messageId` of the tenant: reads the purchase it
    /// names from Google again and applies what Google says. A failure to reach Google throws,
    /// so the push fails and Pub/Sub delivers it again.
    public func receiveGoogleNotification(_ notification: GooglePlayNotification, messageID: String, tenantID: String) async throws
        -> NotificationOutcome
    {
        guard (1...200).contains(messageID.utf8.count), messageID.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return .recorded
        }
        // Message ids are unique within one Pub/Sub topic only: the tenant is part of the key.
        let key = "google:" + tenantID + ":" + messageID
        let seen = try await database.read { db in
            try db.queryOne("SELECT 1 AS found FROM commerce_notifications WHERE notification_uuid = ? AND tenant_id = ?", key, tenantID)
        }
        if seen != nil { return .duplicate }
        let at = notification.eventTime ?? environment.clock.now
        var (token, order) = (String?.none, String?.none)
        let outcome: NotificationOutcome
        switch notification.event {
        case .test, .other:
            outcome = .recorded
        case .subscription(let type, let purchaseToken):
            token = purchaseToken
            outcome = try await refreshGoogleSubscription(
                tenantID: tenantID, token: purchaseToken, revokedAt: type == GooglePlayNotification.revoked ? at : nil)
        case .oneTimeProduct(let type, let purchaseToken, let productID):
            token = purchaseToken
            outcome = type == 1 ? try await grantNotifiedProduct(tenantID: tenantID, token: purchaseToken, productID: productID) : .recorded
        case .voided(let purchaseToken, let orderID, let productType, let refundType):
            (token, order) = (purchaseToken, orderID)
            outcome = try await confirmGoogleVoid(
                tenantID: tenantID, token: purchaseToken, orderID: orderID, productType: productType, partial: refundType == 2, at: at)
        }
        let now = environment.clock.now
        let (chain, orderID) = (
            token.flatMap { GooglePlayAPI.isPathSegment($0) ? GooglePurchaseToken.purchaseKey(GooglePurchaseToken.hash($0)) : nil },
            order.flatMap { GooglePlayAPI.isPathSegment($0) ? $0 : nil })
        let stored = try await database.write { db in
            try db.execute(
                """
                INSERT INTO commerce_notifications (notification_uuid, tenant_id, notification_type, environment, original_transaction_id,
                  transaction_id, outcome, signed_at, received_at)
                VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?) ON CONFLICT (notification_uuid) DO NOTHING
                """,
                [.text(key), .text(tenantID), .text(notification.typeName), chain.sqlValue, orderID.sqlValue, .text(outcome.rawValue),
                 notification.eventTime.sqlValue, now.sqlValue])
        }
        return stored == 1 ? outcome : .duplicate
    }

    /// Reads a subscription token again and records each line item as Google states it; a
    /// new token's grants go to the owner of the token it replaced, else to the account (or
    /// SubscriptionFlow customer) it is tagged with, else wait for the app's report. A
    /// revocation (`revokedAt`) ends a line only where Google's own state gives no access.
    /// Acknowledges once a grant has a holder.
    func refreshGoogleSubscription(tenantID: String, token: String, revokedAt: Date?) async throws -> NotificationOutcome {
        guard GooglePlayAPI.isPathSegment(token) else { return .recorded }
        let connection = try await googlePlayConnection(tenantID: tenantID)
        let purchase: PlaySubscription
        do {
            purchase = try await readGoogleSubscription(tenantID: tenantID, connection: connection, token: token)
        } catch let error as PurchaseError where error.code == .purchaseInvalid {
            return .recorded  // Google does not know the token (or it is a test purchase on production)
        }
        let plans = try await plans(tenantID: tenantID)
        let holder = try await holder(taggedWith: purchase.obfuscatedAccountID, tenantID: tenantID)
        let readAt = environment.clock.now
        let hash = GooglePurchaseToken.hash(token)
        var granted = false
        for item in purchase.lineItems {
            guard let plan = Self.plan(for: item, in: plans) else { continue }
            let revoke = revokedAt.flatMap { GoogleLineState(state: purchase.state, item: item, readAt: readAt).givesAccess(at: readAt) ? nil : $0 }
            if revokedAt != nil, revoke == nil {
                environment.logger.info("google play still grants a revoked subscription; Google's state stands", ["tenant": tenantID])
            }
            for attempt in 0..<3 {
                let (id, now) = (environment.ids.next().lowercased, environment.clock.now)
                do {
                    let held = try await database.write { db in
                        var line = try Self.recordGoogleLine(
                            db, tenantID: tenantID, token: token, purchase: purchase, item: item, plan: plan, readAt: readAt, tag: holder, newID: id, now: now)
                        if let revoke {
                            try db.execute(
                                "UPDATE commerce_subscriptions SET revoked_at = COALESCE(revoked_at, ?), updated_at = ? WHERE id = ?", revoke, now, line.id)
                            line = try Self.subscription(db, id: line.id)
                        }
                        guard line.revokedAt == nil else { return false }
                        try Self.grantedGoogleLine(db, tenantID: tenantID, tokenHash: hash, purchase: purchase, holder: line.accountId, now: now)
                        return line.accountId != nil
                    }
                    granted = granted || held
                    break
                } catch let error as DatabaseError where error.kind == .uniqueViolation && attempt < 2 {
                    continue  // a concurrent report inserted the row first
                }
            }
        }
        if granted { await settleGooglePurchase(tenantID: tenantID, tokenHash: hash, connection: connection) }
        return .applied
    }

    /// A voided-purchase notification, checked with Google before it is applied: a one-time
    /// product whose `purchaseState` reads canceled, a subscription period (the voided order is
    /// the line's latest) that Google no longer grants. A partial refund of some of a
    /// quantity takes nothing back.
    private func confirmGoogleVoid(tenantID: String, token: String, orderID: String?, productType: Int?, partial: Bool, at: Date) async throws
        -> NotificationOutcome
    {
        guard GooglePlayAPI.isPathSegment(token), !partial else { return .recorded }
        let connection = try await googlePlayConnection(tenantID: tenantID)
        let confirmed: Bool
        do {
            if productType == 2 {
                let hash = GooglePurchaseToken.hash(token)
                guard let productID: String = try await database.read({ db in
                    try db.queryOne("SELECT product_id FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, hash)?.get("product_id")
                }), GooglePlayAPI.isPathSegment(productID) else { return .recorded }  // never reported: the backstop still sees it
                confirmed = try await askGoogle(tenantID: tenantID) { try await connection.api.product(productID, purchaseToken: token) }.purchaseState == 1
            } else {
                let purchase = try await askGoogle(tenantID: tenantID) { try await connection.api.subscription(purchaseToken: token) }
                let now = environment.clock.now
                confirmed = purchase.lineItems.contains { item in
                    (orderID == nil || item.latestOrderID == orderID) && !GoogleLineState(state: purchase.state, item: item, readAt: now).givesAccess(at: now)
                }
            }
        } catch let error as PurchaseError where error.code == .purchaseInvalid {
            return .recorded
        }
        guard confirmed else { return .recorded }
        return try await voidGooglePurchase(tenantID: tenantID, token: token, orderID: orderID, at: at) ? .applied : .recorded
    }

    /// A one-time product bought outside the app's reach (a crash before it reported, a
    /// purchase on another device): granted to the account its tag names; untagged ones wait
    /// for the app's report.
    private func grantNotifiedProduct(tenantID: String, token: String, productID: String) async throws -> NotificationOutcome {
        guard GooglePlayAPI.isPathSegment(token),
              let package = try await database.read({ db in try Self.creditPackages(db, tenantID, provider: "google") })
                .first(where: { $0.platformProductId == productID })
        else { return .recorded }
        let connection = try await googlePlayConnection(tenantID: tenantID)
        let purchase: PlayProductPurchase
        do {
            purchase = try await askGoogle(tenantID: tenantID) { try await connection.api.product(productID, purchaseToken: token) }
        } catch let error as PurchaseError where error.code == .purchaseInvalid {
            return .recorded
        }
        guard let holder = try await holder(taggedWith: purchase.obfuscatedAccountID, tenantID: tenantID), !holder.hasPrefix(Self.customerPrefix)
        else { return .recorded }
        do {
            _ = try await grantGoogleCredits(tenantID: tenantID, accountID: holder, connection: connection, package: package, token: token)
            return .applied
        } catch let error as PurchaseError where error.code != .storeUnavailable {
            return .recorded  // pending, canceled, a test purchase on production, granted to another account
        }
    }

    /// The holder a purchase's `obfuscatedExternalAccountId` names: the customer of a
    /// SubscriptionFlow account token, else a live account of the tenant; nil otherwise.
    func holder(taggedWith tag: String?, tenantID: String) async throws -> String? {
        guard let tag = Self.screenedTag(tag) else { return nil }
        if let customer = try await customer(ofToken: tag, tenantID: tenantID) { return Self.customerHolder(customer) }
        if let accounts, try await accounts.accountExists(tenantID: tenantID, accountID: tag) { return tag }
        return nil
    }

    /// A tag as Google allows one (at most 64 characters), printable ASCII; nil otherwise.
    static func screenedTag(_ tag: String?) -> String? {
        guard let tag, (1...64).contains(tag.utf8.count), tag.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return tag
    }
}
