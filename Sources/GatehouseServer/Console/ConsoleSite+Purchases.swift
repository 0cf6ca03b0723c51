import Foundation
import GatehouseCommerceEngine
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseHTML
import GatehouseHTTP

extension ConsoleSite {
    /// A customer's purchases, like RevenueCat's customer page: the entitlement now, grants by
    /// store, wallets, and the store notifications received about them and what they did.
    /// `holder` is an account id, or `customer:<id>` for a SubscriptionFlow customer.
    func registerPurchases(on site: RouteGroup) {
        let (commerce, clock) = (commerce, environment.clock)
        on(site, .GET, "/purchases/:tenantId/:holder") { _, context, session in
            let (tenantID, holder) = (context.parameter("tenantId"), context.parameter("holder"))
            let history = try await commerce.customerHistory(tenantID: tenantID, holder: holder)
            let summary = holder.hasPrefix("customer:") ? nil : try await commerce.entitlementSummary(tenantID: tenantID, accountID: holder)
            return ConsolePage.render("Purchases", session: session, current: "/accounts",
                Self.purchasesPage(history, summary: summary, holder: holder, now: clock.now))
        }
    }

    static func purchasesPage(_ history: CustomerHistory, summary: EntitlementSummary?, holder: String, now: Date) -> HTML {
        let subscriptions = history.subscriptions.map { subscription -> [HTML] in
            let state = subscription.state(at: now)
            let flags = [subscription.billingIssueAt != nil ? "billing issue" : nil, subscription.autoRenew == false ? "will not renew" : nil]
                .compactMap { $0 }.joined(separator: ", ")
            return ["\(subscription.store == "google" ? "Google Play" : "App Store")", "\(subscription.platformProductId)", "\(subscription.planId)",
                    "<strong>\(state.status.rawValue)</strong>", "\(ConsolePage.time(state.currentPeriodEnd))", "\(flags.isEmpty ? "—" : flags)",
                    "\(subscription.environment.rawValue)"]
        }
        let purchases = history.purchases.map { purchase -> [HTML] in
            ["\(purchase.store == "google" ? "Google Play" : "App Store")", "\(purchase.productId)", "\(purchase.kind)", "\(purchase.credits)",
             "\(ConsolePage.time(purchase.createdAt))", "\(purchase.revokedAt.map { "refunded " + ConsolePage.time($0) } ?? "—")"]
        }
        let notifications = history.notifications.map { note -> [HTML] in
            ["\(ConsolePage.time(note.receivedAt))", "\(note.store == "google" ? "Google Play" : "App Store")",
             "<code>\(note.type)\(note.subtype.map { " · " + $0 } ?? "")</code>", "\(note.outcome)"]
        }
        let wallets = history.wallets.sorted { $0.key < $1.key }.map { kind, credits -> HTML in "<div><dt>\(kind) credits</dt><dd>\(credits)</dd></div>" }
        var entitlement = HTML.empty
        if let summary {
            entitlement = """
                <div><dt>Entitlement</dt><dd>\(summary.entitlement.state.status.rawValue)\(summary.entitlement.planId.map { " · " + $0 } ?? "")</dd></div>\
                <div><dt>Until</dt><dd>\(ConsolePage.time(summary.entitlement.state.currentPeriodEnd))</dd></div>\
                <div><dt>Trial</dt><dd>\(summary.trial.status.rawValue)\(summary.trial.endsAt.map { " until " + ConsolePage.time($0) } ?? "")</dd></div>
                """
        }
        return """
            <p class="muted">Holder <code>\(holder)</code></p><dl class="facts">\(entitlement)\(wallets)</dl>\
            <section><h2>Subscriptions</h2>\(ConsolePage.table(["Store", "Product", "Plan", "State", "Until", "Flags", "Environment"], subscriptions,
                empty: "No subscription."))</section>\
            <section><h2>One-time purchases</h2>\(ConsolePage.table(["Store", "Product", "Kind", "Credits", "Bought", "Refund"], purchases,
                empty: "No purchase."))</section>\
            <section><h2>Store notifications</h2>\(ConsolePage.table(["Received", "Store", "Type", "What it did"], notifications,
                empty: "No notification about these purchases."))</section>
            """
    }
}
