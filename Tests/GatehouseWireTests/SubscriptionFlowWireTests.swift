import Foundation
import GatehouseWire
import Testing

/// The SubscriptionFlow wire types against seed 003's literal JSON (and, where the seed shows
/// none, the shape the server's routes send today).
@Suite struct SubscriptionFlowWireTests {
    static let entitlementsLiteral = #"""
        {
          "status": true,
          "data": [
            {
              "key": "pro",
              "name": "Pro",
              "source": "AppStore",
              "subscription_id": "5faf8...",
              "expires_at": "2026-11-28T09:00:00+00:00",
              "grants": [
                { "source": "AppStore", "subscription_id": "5faf8...",
                  "status": "Active", "expires_at": "2026-11-28T09:00:00+00:00" }
              ]
            }
          ]
        }
        """#

    @Test func entitlementsOfGetMyEntitlements() throws {
        let envelope = try WireContract.roundTrip(SubscriptionFlowWire.Envelope<[SubscriptionFlowWire.Entitlement]>.self, Self.entitlementsLiteral)
        #expect(envelope.status && envelope.data.count == 1)
        let pro = try #require(envelope.data.first)
        #expect(pro.key == "pro" && pro.subscriptionId == "5faf8..." && pro.expiresAt == "2026-11-28T09:00:00+00:00")
        #expect(pro.grants == [.init(source: "AppStore", subscriptionId: "5faf8...", status: "Active", expiresAt: "2026-11-28T09:00:00+00:00")])
    }

    @Test func anEntitlementWithoutAnEndSendsNull() throws {
        let open = try WireContract.roundTrip(SubscriptionFlowWire.Entitlement.self, #"""
            {"key":"pro","name":"Pro","source":"AppStore","subscription_id":"s","expires_at":null,
             "grants":[{"source":"AppStore","subscription_id":"s","status":"Active","expires_at":null}]}
            """#)
        #expect(open.expiresAt == nil && open.grants.first?.expiresAt == nil)
    }

    @Test func purchaseReportBody() throws {
        // The seed's `["store": "apple", "signed_transaction": verification.jwsRepresentation]`.
        let report = try WireContract.roundTrip(SubscriptionFlowWire.PurchaseReport.self, #"{"store":"apple","signed_transaction":"eyJ.x.y"}"#)
        #expect(report == SubscriptionFlowWire.PurchaseReport(signedTransaction: "eyJ.x.y"))
    }

    @Test func purchaseAnswers() throws {
        // Seed: "answers 200 with "sandbox": true and the entitlements of the mapped plan".
        let sandbox = try WireContract.roundTrip(SubscriptionFlowWire.Envelope<SubscriptionFlowWire.PurchaseLink>.self, #"""
            {"status":true,"data":{"linked":false,"sandbox":true,"entitlements":[{"key":"pro","name":"Pro","source":"AppStore",
             "subscription_id":"s","expires_at":"2026-11-28T09:00:00+00:00",
             "grants":[{"source":"AppStore","subscription_id":"s","status":"Active","expires_at":"2026-11-28T09:00:00+00:00"}]}]}}
            """#)
        #expect(sandbox.data.sandbox && !sandbox.data.linked && sandbox.data.entitlements.count == 1)
        let refused = try WireContract.roundTrip(SubscriptionFlowWire.Failure.self,
                                                 #"{"status":false,"code":"PURCHASE_REFUSED","message":"This purchase cannot be linked to this account."}"#)
        #expect(!refused.status && refused.code == "PURCHASE_REFUSED")
    }

    /// Seed 003's "Response 201" of `POST /account-tokens`, and a revoke's answer without the secret.
    @Test func accountTokenOfTheIssueSection() throws {
        let issued = try WireContract.roundTrip(SubscriptionFlowWire.Envelope<SubscriptionFlowWire.AccountToken>.self, #"""
            {
              "status": true,
              "data": {
                "account_token": "72b8598b-8706-4a5e-96a2-52abbd0400cb",
                "customer_id": "9f1c2e0a-5b7d-4c1e-8a64-0d3b2f7a9e11",
                "created_at": "2026-11-03T09:00:00+00:00",
                "revoked_at": null,
                "client_secret": "OOkXxkYIfion1fcWJqL1GIR5tdbVqMFI5wlABZafEJKlI8EO",
                "reused": false
              }
            }
            """#)
        #expect(issued.data.reused == false && issued.data.revokedAt == nil && issued.data.clientSecret?.count == 48)
        try WireContract.roundTrip(SubscriptionFlowWire.Envelope<SubscriptionFlowWire.AccountToken>.self, #"""
            {"status":true,"data":{"account_token":"72b8598b-8706-4a5e-96a2-52abbd0400cb","customer_id":"c",
             "created_at":"2026-11-03T09:00:00+00:00","revoked_at":"2026-11-04T09:00:00+00:00"}}
            """#)
    }

    /// The request bodies the server reads by the types' keys: seed 003's token request and
    /// the backend's purchase registration.
    @Test func requestBodies() throws {
        let token = try WireContract.roundTrip(SubscriptionFlowWire.AccountTokenRequest.self, #"{ "customer_id": "9f1c2e0a-5b7d-4c1e-8a64-0d3b2f7a9e11" }"#)
        #expect(token.customerId == "9f1c2e0a-5b7d-4c1e-8a64-0d3b2f7a9e11" && token.rotate == nil)
        let purchase = try WireContract.roundTrip(SubscriptionFlowWire.CustomerPurchase.self, #"{"customer_id":"c","store":"apple","signed_transaction":"a.b.c"}"#)
        #expect(purchase.signedTransaction == "a.b.c")
    }
}
