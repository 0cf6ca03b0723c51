import Foundation
import GatehouseWire
import Testing

/// The Datacove wire types against seed 000's literal JSON (and, where the seed shows none, the
/// shape the server's routes send today).
@Suite struct DatacoveWireTests {
    @Test func entitlementSummaryOfSection07() throws {
        let summary = try WireContract.roundTrip(DatacoveWire.EntitlementSummary.self, #"""
            {
              "trial": { "status": "not_started" },
              "trialOffer": { "available": false },
              "entitlement": {
                "status": "active",
                "productId": "650f1c2e9b1d4a0012ab34cd",
                "platform": "apple",
                "currentPeriodEnd": "2026-11-01T08:00:00.000Z"
              },
              "plans": [
                {
                  "productId": "650f1c2e9b1d4a0012ab34cd",
                  "platformProductId": "com.example.app.yearly",
                  "displayName": "1 Year Protection",
                  "interval": "annual",
                  "gatedWorkflowId": "wf-sec-001"
                }
              ],
              "canExecuteGatedWorkflow": true,
              "serverTime": "2026-10-02T09:30:00.000Z"
            }
            """#)
        #expect(summary.entitlement.currentPeriodEnd == "2026-11-01T08:00:00.000Z" && summary.plans.first?.interval == "annual")
        #expect(summary.canExecuteGatedWorkflow && summary.serverTime == "2026-10-02T09:30:00.000Z")
    }

    @Test func entitlementSummaryWithoutAPlanAsTheServerSendsIt() throws {
        // No plan: the entitlement is only its status; an available trial names its length; no workflow is `null`.
        let summary = try WireContract.roundTrip(DatacoveWire.EntitlementSummary.self, #"""
            {"trial":{"status":"active","startedAt":"2026-10-01T09:30:00.000Z","endsAt":"2026-10-08T09:30:00.000Z"},
             "trialOffer":{"available":true,"durationDays":7},"entitlement":{"status":"none"},
             "plans":[{"productId":"p","platformProductId":"com.example.monthly","displayName":"Monthly","interval":"monthly","gatedWorkflowId":null}],
             "canExecuteGatedWorkflow":true,"serverTime":"2026-10-02T09:30:00.000Z"}
            """#)
        #expect(summary.trialOffer.durationDays == 7 && summary.entitlement.productId == nil && summary.plans[0].gatedWorkflowId == nil)
        // A key sent as `null` may also be missing (an older server): it still decodes, as `nil`.
        let plan = try JSONDecoder().decode(DatacoveWire.EntitlementSummary.Plan.self,
                                            from: Data(#"{"productId":"p","platformProductId":"x","displayName":"d","interval":"monthly"}"#.utf8))
        #expect(plan.gatedWorkflowId == nil)
        // A plan held without a period end still sends the key, as `null`.
        try WireContract.roundTrip(DatacoveWire.EntitlementSummary.Entitlement.self,
                                   #"{"status":"expired","productId":"p","platform":"apple","currentPeriodEnd":null}"#)
    }

    @Test func purchaseResultsOfSection07() throws {
        let credits = try WireContract.roundTrip(DatacoveWire.PurchaseResult.self, #"{ "kind": "credit_package", "creditsGranted": 500 }"#)
        #expect(credits.kind == "credit_package" && credits.creditsGranted == 500)
        let plan = try WireContract.roundTrip(DatacoveWire.PurchaseResult.self, #"""
            {
              "kind": "service_entitlement",
              "entitlementStatus": "active",
              "currentPeriodEnd": "2026-11-02T09:30:00.000Z"
            }
            """#)
        #expect(plan.entitlementStatus == "active" && plan.transferred == nil)
        // A moved plan says so (seed: "A 200 with "transferred": true"); a missing period end is `null`.
        let moved = try WireContract.roundTrip(DatacoveWire.PurchaseResult.self,
                                               #"{"kind":"service_entitlement","entitlementStatus":"active","currentPeriodEnd":null,"transferred":true}"#)
        #expect(moved.transferred == true && moved.currentPeriodEnd == nil)
    }

    @Test func verifyPurchaseBody() throws {
        let body = try WireContract.roundTrip(DatacoveWire.VerifyPurchase.self,
                                              #"{"platform":"apple","platformProductId":"com.example.app.yearly","transactionId":"2000000123456789"}"#)
        #expect(body == DatacoveWire.VerifyPurchase(platformProductId: "com.example.app.yearly", transactionId: "2000000123456789"))
        let moving = try WireContract.roundTrip(DatacoveWire.VerifyPurchase.self, #"""
            {"platform":"apple","platformProductId":"p","transactionId":"1","signedTransaction":"eyJ.x.y","transferToCurrentAccount":true}
            """#)
        #expect(moving.transferToCurrentAccount == true && moving.signedTransaction == "eyJ.x.y")
    }

    @Test func errorEnvelopesOfSections02And08() throws {
        let evicted = try WireContract.roundTrip(DatacoveWire.ErrorEnvelope.self, #"""
            {
              "statusCode": 401,
              "timestamp": "2026-10-02T09:30:00.000Z",
              "path": "/api/auth/v1/refresh",
              "error": {
                "statusCode": 401,
                "error": "Unauthorized",
                "message": "You were signed out because this account signed in on another device.",
                "code": "SESSION_EVICTED"
              }
            }
            """#)
        #expect(evicted.error.code == "SESSION_EVICTED" && evicted.error.error == "Unauthorized" && evicted.path == "/api/auth/v1/refresh")
        // The seed's shorter example: only code and message inside `error`.
        let inactive = try WireContract.roundTrip(DatacoveWire.ErrorEnvelope.self, #"""
            {
              "statusCode": 403,
              "timestamp": "2026-10-02T09:30:00.000Z",
              "path": "/api/workflows/v1/execute",
              "error": {
                "code": "ENTITLEMENT_INACTIVE",
                "message": "Your trial has ended and no active subscription was found for this service."
              }
            }
            """#)
        #expect(inactive.error.code == "ENTITLEMENT_INACTIVE" && inactive.error.statusCode == nil)
        // The move offer of §07 carries canTransfer.
        let linked = try WireContract.roundTrip(DatacoveWire.ErrorEnvelope.self, #"""
            {"statusCode":409,"timestamp":"2026-10-02T09:30:00.000Z","path":"/api/purchases/v1/verify-purchase",
             "error":{"statusCode":409,"error":"Conflict","message":"m","code":"PURCHASE_LINKED_TO_ANOTHER_ACCOUNT","canTransfer":true}}
            """#)
        #expect(linked.error.canTransfer == true)
    }
}
