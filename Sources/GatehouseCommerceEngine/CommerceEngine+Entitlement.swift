import Foundation
import GatehouseCore
import GatehouseDatabase

/// The server trial of an account.
public struct TrialState: Sendable, Equatable {
    public enum Status: String, Sendable { case notStarted = "not_started", active, ended }
    public let status: Status
    public let startedAt: Date?
    public let endsAt: Date?
}

/// The account's plan entitlement: the best of its subscriptions now.
public struct AccountEntitlement: Sendable, Equatable {
    public let state: EntitlementState
    /// The plan's catalogue id (`productId` on the wire), when the account has one.
    public let planId: String?
    public let subscription: Subscription?
}

/// Everything the paywall needs, computed from server time (seed 000 §07 "Trial and entitlement").
public struct EntitlementSummary: Sendable, Equatable {
    public let trial: TrialState
    /// Whether the server trial can be started now, and how long it lasts.
    public let trialOfferAvailable: Bool
    public let trialDurationDays: Int?
    public let entitlement: AccountEntitlement
    public let plans: [Plan]
    public let canExecuteGatedWorkflow: Bool
    public let serverTime: Date
}

extension CommerceEngine {
    /// - Parameter platform: the app's (`ANDROID` is offered the Android trial; any other app the iOS one).
    public func entitlementSummary(tenantID: String, accountID: String, platform: String? = nil) async throws -> EntitlementSummary {
        let now = environment.clock.now
        return try await database.read { db in try Self.summary(db, tenantID: tenantID, accountID: accountID, platform: platform, now: now) }
    }

    /// Starts the server trial of the app's platform once per account; asking again answers the same trial.
    public func startTrial(tenantID: String, accountID: String, platform: String? = nil) async throws -> EntitlementSummary {
        let now = environment.clock.now
        return try await database.write { db in
            let summary = try Self.summary(db, tenantID: tenantID, accountID: accountID, platform: platform, now: now)
            if summary.trial.status != .notStarted { return summary }
            guard summary.trialOfferAvailable, let days = summary.trialDurationDays else {
                throw PurchaseError(.trialUnavailable, .noTrial)
            }
            try db.execute(
                "INSERT INTO commerce_trials (tenant_id, account_id, started_at, ends_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                tenantID, accountID, now, now.addingTimeInterval(TimeInterval(days) * 86_400))
            return try Self.summary(db, tenantID: tenantID, accountID: accountID, platform: platform, now: now)
        }
    }

    /// Throws 403 `ENTITLEMENT_INACTIVE` when `workflowID` is gated by a plan and the account
    /// has neither an active trial nor an active plan covering it. Workflows call this before running.
    public func requireEntitlement(tenantID: String, accountID: String, workflowID: String) async throws {
        let now = environment.clock.now
        let allowed = try await database.read { db in try Self.mayRun(db, tenantID: tenantID, accountID: accountID, workflowID: workflowID, now: now) }
        if !allowed { throw PurchaseError(.entitlementInactive, .entitlementInactive) }
    }

    /// Whether the account ever started the server trial.
    public static func trialStarted(_ db: any DatabaseConnection, tenantID: String, accountID: String) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM commerce_trials WHERE tenant_id = ? AND account_id = ?", tenantID, accountID) != nil
    }

    static func mayRun(_ db: any DatabaseConnection, tenantID: String, accountID: String, workflowID: String, now: Date) throws -> Bool {
        let gating = try plans(db, tenantID).filter { $0.gatedWorkflowId == workflowID }
        if gating.isEmpty { return true }
        if try trial(db, tenantID: tenantID, accountID: accountID, now: now).status == .active { return true }
        let covering = Set(gating.map(\.productId))
        return try subscriptions(db, tenantID: tenantID, holder: accountID)
            .contains { covering.contains($0.planId) && $0.state(at: now).hasAccess }
    }

    static func summary(_ db: any DatabaseConnection, tenantID: String, accountID: String, platform: String?, now: Date) throws -> EntitlementSummary {
        let trial = try trial(db, tenantID: tenantID, accountID: accountID, now: now)
        let entitlement = try entitlement(db, tenantID: tenantID, holder: accountID, now: now)
        let config = try trialConfig(db, tenantID).offer(platform: platform)
        let offer = config.enabled && trial.status == .notStarted && !entitlement.state.hasAccess
        return EntitlementSummary(
            trial: trial, trialOfferAvailable: offer, trialDurationDays: config.enabled ? config.days : nil,
            entitlement: entitlement, plans: try plans(db, tenantID),
            canExecuteGatedWorkflow: trial.status == .active || entitlement.state.hasAccess, serverTime: now)
    }

    static func trial(_ db: any DatabaseConnection, tenantID: String, accountID: String, now: Date) throws -> TrialState {
        guard let row = try db.queryOne("SELECT * FROM commerce_trials WHERE tenant_id = ? AND account_id = ?", tenantID, accountID) else {
            return TrialState(status: .notStarted, startedAt: nil, endsAt: nil)
        }
        let ends: Date = try row.get("ends_at")
        return TrialState(status: now < ends ? .active : .ended, startedAt: try row.get("started_at"), endsAt: ends)
    }

    /// The holder's subscription with access that lasts longest, else the one that ended last.
    static func entitlement(_ db: any DatabaseConnection, tenantID: String, holder: String, now: Date) throws -> AccountEntitlement {
        let all = try subscriptions(db, tenantID: tenantID, holder: holder)
        func end(_ subscription: Subscription) -> Date { subscription.state(at: now).currentPeriodEnd ?? .distantPast }
        let best = all.filter { $0.state(at: now).hasAccess }.max { end($0) < end($1) } ?? all.max { end($0) < end($1) }
        guard let best else { return AccountEntitlement(state: .none, planId: nil, subscription: nil) }
        return AccountEntitlement(state: best.state(at: now), planId: best.planId, subscription: best)
    }

    static func subscriptions(_ db: any DatabaseConnection, tenantID: String, holder: String) throws -> [Subscription] {
        try db.query("SELECT * FROM commerce_subscriptions WHERE tenant_id = ? AND account_id = ?", [.text(tenantID), .text(holder)])
            .map(Subscription.init)
    }
}
