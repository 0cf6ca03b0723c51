import Foundation
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// SubscriptionFlow's answers (seed 003), from the commerce engine's results into the shared
/// wire types, with its `+00:00` timestamps.
enum SubscriptionFlowJSON {
    static func success<Payload: Codable & Sendable & Equatable>(_ data: Payload, status: Int = 200) throws -> Response {
        try .json(SubscriptionFlowWire.Envelope(data: data), status: status)
    }

    static func token(_ issued: IssuedAccountToken) -> SubscriptionFlowWire.AccountToken {
        var json = token(issued.accountToken)
        json.clientSecret = issued.clientSecret
        json.reused = issued.reused
        return json
    }

    static func token(_ token: AccountToken) -> SubscriptionFlowWire.AccountToken {
        SubscriptionFlowWire.AccountToken(
            accountToken: token.token, customerId: token.customerId, createdAt: date(token.createdAt), revokedAt: token.revokedAt.map(date))
    }

    static func entitlements(_ list: [CustomerEntitlement]) -> [SubscriptionFlowWire.Entitlement] {
        list.map { entitlement in
            SubscriptionFlowWire.Entitlement(
                key: entitlement.key, name: entitlement.name, source: source(entitlement.grants.first?.store), subscriptionId: entitlement.subscriptionId,
                expiresAt: entitlement.expiresAt.map(date),
                grants: entitlement.grants.map { grant in
                    SubscriptionFlowWire.Grant(
                        source: source(grant.store), subscriptionId: grant.subscriptionId, status: grant.status, expiresAt: grant.expiresAt.map(date))
                })
        }
    }

    static func link(_ list: [CustomerEntitlement], sandbox: Bool) -> SubscriptionFlowWire.PurchaseLink {
        SubscriptionFlowWire.PurchaseLink(linked: !sandbox, sandbox: sandbox, entitlements: entitlements(list))
    }

    /// The seed's name of a store.
    static func source(_ store: String?) -> String { store == "google" ? "GooglePlay" : "AppStore" }

    /// `2026-11-03T09:00:00+00:00`.
    static func date(_ date: Date) -> String { WireDate.secondsWithOffset(date) }
}
