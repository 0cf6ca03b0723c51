import Foundation
import GatehouseCore
import GatehouseDatabase

/// When a plan held by another account may move to the reporting one.
enum TransferPolicy {
    /// Never (SubscriptionFlow: a purchase links only to its own customer).
    case never
    /// When the user agreed (`transferToCurrentAccount`), or without asking when the holder was
    /// deleted or is the same person (Datacove).
    case whenAsked
    /// The report does not ask; moves happen only without asking.
    case automaticOnly
}

/// What linking a plan did.
struct PlanLink {
    let subscription: Subscription
    let transferred: Bool
}

extension CommerceEngine {
    /// Records the subscription behind a verified plan transaction and links it to `holder`,
    /// moving it from another account only as `transfer` allows.
    func linkPlan(tenantID: String, holder: String, payload: TransactionPayload, plan: Plan, transfer: TransferPolicy) async throws -> PlanLink {
        let expiry = try Self.expiry(of: payload, plan: plan)
        return try await linkSubscription(tenantID: tenantID, holder: holder, chain: payload.originalTransactionId, transfer: transfer) { db, id, now in
            try Self.recordTransaction(
                db, tenantID: tenantID, payload: payload, plan: plan, expiry: expiry, signedAt: payload.signedDate ?? now, newID: id, now: now)
        }
    }

    /// Records a subscription chain's row (`record` upserts it in the linking transaction, given
    /// a fresh id and the time) and links it to `holder`, moving it from another account only
    /// as `transfer` allows; `linked` runs in that transaction once the row is the holder's.
    /// Both stores link through here.
    func linkSubscription(
        tenantID: String, holder: String, chain: String, transfer: TransferPolicy,
        record: @escaping @Sendable (any DatabaseConnection, _ newID: String, _ now: Date) throws -> Subscription,
        linked: @escaping @Sendable (any DatabaseConnection, Subscription, _ now: Date) throws -> Void = { _, _, _ in }
    ) async throws -> PlanLink {
        for _ in 0..<4 {
            let owners = try await database.read { db in
                try db.query("SELECT tenant_id, account_id FROM commerce_subscriptions WHERE original_transaction_id = ?", [.text(chain)])
            }
            if try owners.contains(where: { try $0.get("tenant_id", as: String.self) != tenantID }) {
                throw PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.purchaseToWorkspace), canTransfer: false)
            }
            let owner = try owners.first?.get("account_id", as: String?.self)
            if let owner, owner.hasPrefix(Self.customerPrefix) != holder.hasPrefix(Self.customerPrefix) {
                // A SubscriptionFlow customer's plan never moves to a Datacove account, nor the other way.
                throw PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: false)
            }
            var relation = AccountRelation.unrelated
            if let owner, owner != holder, transfer != .never, let accounts {
                relation = try await accounts.relation(tenantID: tenantID, holder: owner, reporter: holder)
            }
            let now = environment.clock.now
            let id = environment.ids.next().lowercased
            let automatic = relation != .unrelated
            do {
                let link = try await database.write { db -> PlanLink? in
                    let current = try record(db, id, now)
                    guard current.accountId == owner else { return nil }  // moved meanwhile: decide again
                    if let owner, owner != holder, !automatic {
                        guard transfer == .whenAsked, current.state(at: now).hasAccess else {
                            throw PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount),
                                                canTransfer: transfer != .never && current.state(at: now).hasAccess)
                        }
                    }
                    let held = try Self.setHolder(db, current, holder, now)
                    try linked(db, held, now)
                    return PlanLink(subscription: held, transferred: owner != nil && owner != holder)
                }
                if let link { return link }
            } catch let error as DatabaseError where error.kind == .uniqueViolation {
                continue  // a concurrent first report inserted the row; decide again with it
            }
        }
        throw PurchaseError(.storeUnavailable, .collided(.link))
    }

    /// Upserts the subscription row from a transaction signed at `signedAt`: a newer transaction
    /// of the chain (a later purchase) replaces the product, expiry and revocation; an older one
    /// changes nothing; a copy of the latest one sets its revocation under `OrderedFacts`' rule,
    /// so a copy signed before a refund cannot undo it, and one signed after a reversal cannot
    /// redo it.
    static func recordTransaction(
        _ db: any DatabaseConnection, tenantID: String, payload: TransactionPayload, plan: Plan, expiry: Date, signedAt: Date,
        newID: String, now: Date
    ) throws -> Subscription {
        let purchased = payload.purchaseDate ?? payload.signedDate ?? now
        if let row = try db.queryOne(
            "SELECT * FROM commerce_subscriptions WHERE tenant_id = ? AND original_transaction_id = ?" + db.dialect.forUpdate,
            tenantID, payload.originalTransactionId)
        {
            let stored = try Subscription(row)
            let latestPurchase: Date = try row.get("purchased_at")
            guard purchased >= latestPurchase else { return stored }
            let renewed = expiry > stored.expiresAt
            // A newer period is a new transaction: its revocation starts from its own copy, and
            // nothing said about the previous transaction's revocation applies to it.
            let latestID: String = try row.get("latest_transaction_id")
            let newerPeriod = purchased > latestPurchase && payload.transactionId != latestID
            var revocation = OrderedFacts(signedAt: signedAt)
            revocation.set("revoked_at", payload.revocationDate.sqlValue, in: .revocation)
            var sets = newerPeriod
                ? [("revoked_at", payload.revocationDate.sqlValue), ("revocation_as_of", signedAt.sqlValue)]
                : try revocation.assignments(against: row)
            if renewed {
                // A later expiry starts a new period: what ended or failed before is over, and a
                // lapse signed before this copy was about the period it replaces.
                let lapseTime: Date = try row.get("last_event_at")
                sets += [("ended_at", .null), ("billing_issue_at", .null), ("grace_expires_at", .null),
                         ("last_event_at", max(lapseTime, signedAt).sqlValue)]
            }
            sets += [("latest_transaction_id", .text(payload.transactionId)), ("purchased_at", purchased.sqlValue),
                     ("plan_id", .text(plan.productId)), ("platform_product_id", .text(payload.productId)),
                     ("expires_at", expiry.sqlValue), ("ownership_type", .text(payload.inAppOwnershipType ?? "PURCHASED")),
                     ("updated_at", now.sqlValue)]
            try db.execute(
                "UPDATE commerce_subscriptions SET " + sets.map { "\($0.0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                sets.map(\.1) + [.text(stored.id)])
            return try subscription(db, id: stored.id)
        }
        try db.execute(
            """
            INSERT INTO commerce_subscriptions (id, tenant_id, original_transaction_id, account_id, plan_id, platform_product_id, product_type,
              environment, ownership_type, latest_transaction_id, purchased_at, expires_at, revoked_at, revocation_as_of, last_event_at,
              updated_at)
            VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(newID), .text(tenantID), .text(payload.originalTransactionId), .text(plan.productId), .text(payload.productId),
             .text(payload.type ?? "Auto-Renewable Subscription"), .text(payload.environment.rawValue),
             .text(payload.inAppOwnershipType ?? "PURCHASED"), .text(payload.transactionId), purchased.sqlValue, expiry.sqlValue,
             payload.revocationDate.sqlValue, signedAt.sqlValue, Date(timeIntervalSince1970: 0).sqlValue, now.sqlValue])
        return try subscription(db, id: newID)
    }

    static func setHolder(_ db: any DatabaseConnection, _ subscription: Subscription, _ holder: String, _ now: Date) throws -> Subscription {
        try db.execute("UPDATE commerce_subscriptions SET account_id = ?, updated_at = ? WHERE id = ?", holder, now, subscription.id)
        return try self.subscription(db, id: subscription.id)
    }

    static func subscription(_ db: any DatabaseConnection, id: String) throws -> Subscription {
        guard let row = try db.queryOne("SELECT * FROM commerce_subscriptions WHERE id = ?", id) else {
            throw DatabaseError(kind: .other, code: "missing", message: "subscription \(id) vanished")
        }
        return try Subscription(row)
    }

    /// The end of the period a transaction paid for: Apple's `expiresDate` for auto-renewable
    /// subscriptions, one year from purchase for the non-renewing `one_time_year` — one hour
    /// outside Production, as Apple's sandbox compresses a year, so a TestFlight purchase on a
    /// production tenant never buys a real year.
    static func expiry(of payload: TransactionPayload, plan: Plan) throws -> Date {
        if plan.interval == .oneTimeYear {
            guard let start = payload.purchaseDate else { throw PurchaseError(.purchaseInvalid, .noPurchaseDate) }
            if payload.environment != .production { return start.addingTimeInterval(3600) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(byAdding: .year, value: 1, to: start)!
        }
        guard let expires = payload.expiresDate else { throw PurchaseError(.purchaseInvalid, .noExpiry) }
        return expires
    }
}
