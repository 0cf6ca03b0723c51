import GatehouseHTTP
import GatehouseWire

/// SubscriptionFlow's mobile-stores API: the backend's calls with a server API key, the
/// app's with an account token and its client secret.
enum SubscriptionFlowDocument {
    static var document: Document {
        Document(
            name: "subscriptionflow", title: "Gatehouse mobile stores (SubscriptionFlow dialect)",
            description: "The backend issues account tokens and registers purchases with a server API key (`Authorization: Bearer`, "
                + "a key with no platform); the app reports signed App Store transactions and reads entitlements with "
                + "`X-SF-Account-Token` and `X-SF-Client-Secret`. Every answer is `{\"status\": true, \"data\": …}` or "
                + "`{\"status\": false, \"code\", \"message\"}`.",
            securitySchemes: [
                "serverKey": .object(["type": .string("http"), "scheme": .string("bearer")]),
                "accountToken": .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("X-SF-Account-Token")]),
                "clientSecret": .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("X-SF-Client-Secret")]),
            ],
            security: [["serverKey"]], error: .ref("Failure"), schemas: schemas, operations: operations)
    }

    static let envelope = { (data: Schema) in Schema.object(["status": .boolean, "data": data]) }
    static let grant = Schema.object(["source": .string, "subscription_id": .string, "status": .string, "expires_at": Schema.dateTime.orNull])

    static let storeFields = "apple needs signed_transaction; google needs purchase_token and product_id (the Play subscription)"

    static let schemas: [String: Schema] = [
        "Failure": .object(["status": .boolean, "code": .string, "message": .string]),
        "AccountTokenRequest": .object(["customer_id": .string(minLength: 1), "rotate": .boolean], optional: ["rotate"]),
        "CustomerPurchase": .object([
            "customer_id": .string(minLength: 1), "store": .oneOf(["apple", "google"]), "signed_transaction": .string, "purchase_token": .string,
            "product_id": .string,
        ], optional: ["store", "signed_transaction", "purchase_token", "product_id"]).described(storeFields),
        "PurchaseReport": .object([
            "store": .oneOf(["apple", "google"]), "signed_transaction": .string, "purchase_token": .string, "product_id": .string,
        ], optional: ["store", "signed_transaction", "purchase_token", "product_id"]).described(storeFields),
        "AccountToken": .object([
            "account_token": .string, "customer_id": .string, "created_at": .dateTime, "revoked_at": Schema.dateTime.orNull,
            "client_secret": .string, "reused": .boolean,
        ], optional: ["client_secret", "reused"]),
        "Entitlement": .object([
            "key": .string, "name": .string, "source": .string, "subscription_id": .string, "expires_at": Schema.dateTime.orNull,
            "grants": .array(grant),
        ]),
        "PurchaseLink": .object(["linked": .boolean, "sandbox": .boolean, "entitlements": .array(.ref("Entitlement"))]),
        "AccountTokenEnvelope": envelope(.ref("AccountToken")),
        "EntitlementsEnvelope": envelope(.array(.ref("Entitlement"))),
        "PurchaseLinkEnvelope": envelope(.ref("PurchaseLink")),
    ]

    static var operations: [Operation] {
        let token = SubscriptionFlowWire.AccountToken(
            accountToken: "sfat_01a2b3c4d5", customerId: "customer-42", createdAt: "2026-12-01T10:00:00+00:00", revokedAt: nil,
            clientSecret: "sfcs_9f8e7d6c", reused: false)
        let entitlement = SubscriptionFlowWire.Entitlement(
            key: "pro", name: "Pro", source: "AppStore", subscriptionId: "2000000123456789", expiresAt: "2027-01-01T10:00:00+00:00",
            grants: [.init(source: "AppStore", subscriptionId: "2000000123456789", status: "active", expiresAt: "2027-01-01T10:00:00+00:00")])
        let link = Example.wire(SubscriptionFlowWire.Envelope(data: SubscriptionFlowWire.PurchaseLink(linked: true, sandbox: false, entitlements: [entitlement])))
        let entitlements = Example.wire(SubscriptionFlowWire.Envelope(data: [entitlement]))
        let endpoints = SubscriptionFlowWire.Endpoints.self
        let jws = "eyJhbGciOiJFUzI1NiIsIng1YyI6WyIuLi4iXX0.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDEyMzQ1Njc4OSJ9.c2lnbmF0dXJl"
        return [
            Operation(
                endpoints.issueAccountToken.described,
                body: .json(.ref("AccountTokenRequest"), example: .wire(SubscriptionFlowWire.AccountTokenRequest(customerId: "customer-42"))),
                replies: [
                    .ok(.ref("AccountTokenEnvelope"), .wire(SubscriptionFlowWire.Envelope(data: token)), status: 201, "Issued", links: [
                        Link(name: "entitlements", operationId: "customerEntitlements", parameters: ["customerId": "$response.body#/data/customer_id"]),
                        Link(name: "revoke", operationId: "revokeAccountToken", parameters: ["token": "$response.body#/data/account_token"]),
                    ]),
                    .ok(.ref("AccountTokenEnvelope"), .wire(SubscriptionFlowWire.Envelope(data: token)), "The customer's live token, reused"),
                ]),
            Operation(
                endpoints.revokeAccountToken.described,
                replies: [.ok(.ref("AccountTokenEnvelope"), .wire(SubscriptionFlowWire.Envelope(data: SubscriptionFlowWire.AccountToken(
                    accountToken: "sfat_01a2b3c4d5", customerId: "customer-42", createdAt: "2026-12-01T10:00:00+00:00",
                    revokedAt: "2026-12-02T10:00:00+00:00"))))]),
            Operation(
                endpoints.registerPurchase.described,
                body: .json(.ref("CustomerPurchase"), example: .wire(SubscriptionFlowWire.CustomerPurchase(customerId: "customer-42", signedTransaction: jws))),
                replies: [.ok(.ref("PurchaseLinkEnvelope"), link)]),
            Operation(
                endpoints.customerEntitlements.described,
                replies: [.ok(.ref("EntitlementsEnvelope"), entitlements)]),
            Operation(
                endpoints.reportPurchase.described, body: .json(.ref("PurchaseReport"), example: .wire(SubscriptionFlowWire.PurchaseReport(signedTransaction: jws))),
                replies: [.ok(.ref("PurchaseLinkEnvelope"), link)]),
            Operation(
                endpoints.clientEntitlements.described, replies: [.ok(.ref("EntitlementsEnvelope"), entitlements)]),
        ]
    }
}
