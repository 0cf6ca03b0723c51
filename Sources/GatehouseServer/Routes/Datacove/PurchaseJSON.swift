import Foundation
import GatehouseCommerceEngine
import GatehouseWire
import GatehouseFormats

/// The Datacove purchase answers (seed 000 §07), from the commerce engine's results into the
/// shared wire types.
enum PurchaseJSON {
    static func outcome(_ outcome: PurchaseOutcome) -> DatacoveWire.PurchaseResult {
        switch outcome {
        case .creditPackage(let credits):
            return DatacoveWire.PurchaseResult(kind: "credit_package", creditsGranted: credits)
        case .serviceEntitlement(let state, let transferred):
            return DatacoveWire.PurchaseResult(
                kind: "service_entitlement", entitlementStatus: state.status.rawValue, currentPeriodEnd: date(state.currentPeriodEnd),
                transferred: transferred ? true : nil)
        }
    }

    static func summary(_ summary: EntitlementSummary) -> DatacoveWire.EntitlementSummary {
        let trial = DatacoveWire.EntitlementSummary.Trial(
            status: summary.trial.status.rawValue, startedAt: date(summary.trial.startedAt), endsAt: date(summary.trial.endsAt))
        let offer = DatacoveWire.EntitlementSummary.TrialOffer(
            available: summary.trialOfferAvailable, durationDays: summary.trialOfferAvailable ? summary.trialDurationDays : nil)
        var entitlement = DatacoveWire.EntitlementSummary.Entitlement(status: summary.entitlement.state.status.rawValue)
        if let plan = summary.entitlement.planId {
            entitlement.productId = plan
            entitlement.platform = summary.entitlement.subscription?.store ?? "apple"
            entitlement.currentPeriodEnd = date(summary.entitlement.state.currentPeriodEnd)
        }
        return DatacoveWire.EntitlementSummary(
            trial: trial, trialOffer: offer, entitlement: entitlement, plans: summary.plans.map(plan),
            canExecuteGatedWorkflow: summary.canExecuteGatedWorkflow, serverTime: WireDate.string(summary.serverTime))
    }

    /// A plan as the paywall shows it.
    static func plan(_ plan: Plan) -> DatacoveWire.EntitlementSummary.Plan {
        DatacoveWire.EntitlementSummary.Plan(
            productId: plan.productId, platformProductId: plan.applePlatformProductId, displayName: plan.displayName,
            interval: plan.interval.rawValue, gatedWorkflowId: plan.gatedWorkflowId)
    }

    static func date(_ date: Date?) -> String? { date.map(WireDate.string) }
}
