import Foundation
import GatehouseCommerceEngine
import GatehouseWire

/// The Datacove purchase answers (seed 000 §07), built field by field so the wire stays exact.
enum PurchaseJSON {
    static func outcome(_ outcome: PurchaseOutcome) -> [String: JSONValue] {
        switch outcome {
        case .creditPackage(let credits):
            return ["kind": .string("credit_package"), "creditsGranted": .number(Double(credits))]
        case .serviceEntitlement(let state, let transferred):
            var json: [String: JSONValue] = [
                "kind": .string("service_entitlement"), "entitlementStatus": .string(state.status.rawValue),
                "currentPeriodEnd": date(state.currentPeriodEnd),
            ]
            if transferred { json["transferred"] = .bool(true) }
            return json
        }
    }

    static func summary(_ summary: EntitlementSummary) -> [String: JSONValue] {
        var trial: [String: JSONValue] = ["status": .string(summary.trial.status.rawValue)]
        if let started = summary.trial.startedAt { trial["startedAt"] = date(started) }
        if let ends = summary.trial.endsAt { trial["endsAt"] = date(ends) }
        var offer: [String: JSONValue] = ["available": .bool(summary.trialOfferAvailable)]
        if summary.trialOfferAvailable, let days = summary.trialDurationDays { offer["durationDays"] = .number(Double(days)) }
        var entitlement: [String: JSONValue] = ["status": .string(summary.entitlement.state.status.rawValue)]
        if let plan = summary.entitlement.planId {
            entitlement["productId"] = .string(plan)
            entitlement["platform"] = .string("apple")
            entitlement["currentPeriodEnd"] = date(summary.entitlement.state.currentPeriodEnd)
        }
        return [
            "trial": .object(trial), "trialOffer": .object(offer), "entitlement": .object(entitlement),
            "plans": .array(summary.plans.map(plan)), "canExecuteGatedWorkflow": .bool(summary.canExecuteGatedWorkflow),
            "serverTime": date(summary.serverTime),
        ]
    }

    /// A plan as the paywall shows it.
    static func plan(_ plan: Plan) -> JSONValue {
        .object([
            "productId": .string(plan.productId), "platformProductId": .string(plan.applePlatformProductId),
            "displayName": .string(plan.displayName), "interval": .string(plan.interval.rawValue),
            "gatedWorkflowId": plan.gatedWorkflowId.map(JSONValue.string) ?? .null,
        ])
    }

    static func date(_ date: Date?) -> JSONValue { date.map { .string(WireDate.string($0)) } ?? .null }
}
