import GatehouseWire
import GatehouseCommerceEngine

/// Purchases and the entitlement (the app's session), and the store setup (the admin token).
extension DatacoveDocument {
    static var commerce: [Operation] {
        let summary = Example.wire(DatacoveWire.EntitlementSummary(
            trial: .init(status: "available"), trialOffer: .init(available: true, durationDays: 7), entitlement: .init(status: "none"),
            plans: [.init(productId: "pro", platformProductId: "com.example.pro.monthly", displayName: "Pro", interval: "monthly")],
            canExecuteGatedWorkflow: false, serverTime: at))
        let endpoints = DatacoveWire.Endpoints.self
        return [
            Operation(endpoints.verifyPurchase.described,
                body: .json(.ref("VerifyPurchase"), example: .wire(DatacoveWire.VerifyPurchase(platformProductId: "com.example.credits.10", transactionId: "2000000123456789"))),
                replies: [.ok(.ref("PurchaseResult"), .wire(DatacoveWire.PurchaseResult(kind: "credits", creditsGranted: 10)))]),
            Operation(endpoints.entitlement.described, replies: [.ok(.ref("EntitlementSummary"), summary)]),
            Operation(endpoints.startTrial.described, replies: [.ok(.ref("EntitlementSummary"), summary)]),
        ]
    }

    static var store: [Operation] {
        let apple = Example.wire(DatacoveWire.AppleConfig(
            bundleId: "com.example.app", issuerId: nil, keyId: nil, appAppleId: nil, hasPrivateKey: false, production: false,
            extraTrustedRootPEM: nil, xcodeCertificatePEM: nil, claimUntaggedPurchases: false))
        let google = Example.wire(DatacoveWire.GooglePlayConfig(
            packageName: "com.example.app", hasServiceAccountKey: true, clientEmail: "play-api@example-project.iam.gserviceaccount.com",
            keyFingerprint: "5d41402abc4b2a76b9719d911017c592ae0c5a0f4f1bb6c1b3f6ee2b8d2d9f1e", pushAudience: nil, pushServiceAccountEmail: nil,
            production: false))
        let pricing = Example.wire(DatacoveWire.PricingConfig(iapCreditPackages: [.init(platformProductId: "com.example.credits.10", credits: 10, displayName: "10 credits")]))
        let plan = DatacoveWire.StorePlan(productId: "pro", displayName: "Pro", interval: "monthly", platformProductIds: ["apple": "com.example.pro.monthly"], gatedWorkflowId: nil)
        let trial = Example.wire(DatacoveWire.TrialConfig(ios: .init(enabled: true, durationDays: 7), android: .init(enabled: false, durationDays: 7)))
        let endpoints = DatacoveWire.Endpoints.Store.self
        func operation<Body, Answer>(_ endpoint: Endpoint<Body, Answer>, body: Content? = nil, _ reply: Reply) -> Operation {
            Operation(endpoint.described, body: body, replies: [reply])
        }
        var pricingRead = operation(endpoints.pricingConfig, .ok(.ref("PricingConfig"), pricing))
        pricingRead.query = [Parameter(name: "provider", schema: .oneOf(CommerceEngine.providers), description: "google for Google Play's packages; apple when left out")]
        return [
            operation(endpoints.updateAppleConfig,
                body: .json(.ref("AppleConfigPatch"), example: .literal(["bundleId": .string("com.example.app"), "production": .bool(false)])),
                .ok(.ref("AppleConfig"), apple)),
            operation(endpoints.appleConfig, .ok(.ref("AppleConfig"), apple)),
            operation(endpoints.updateGooglePlayConfig,
                body: .json(.ref("GooglePlayConfigPatch"), example: .literal(["packageName": .string("com.example.app"), "production": .bool(false)])),
                .ok(.ref("GooglePlayConfig"), google)),
            operation(endpoints.googlePlayConfig, .ok(.ref("GooglePlayConfig"), google)),
            operation(endpoints.putPricingConfig, body: .json(.ref("PricingConfigUpdate"), example: pricing),
                .ok(.ref("PricingConfig"), pricing, links: [Link(name: "read", operationId: "getPricingConfig", parameters: ["tenantId": "$request.path.tenantId"])])),
            pricingRead,
            operation(endpoints.createPlan,
                body: .json(.ref("StorePlanRequest"), example: .literal([
                    "displayName": .string("Pro"), "interval": .string("monthly"), "platformProductIds": .object(["apple": .string("com.example.pro.monthly")]),
                ])), .ok(.ref("StorePlan"), .wire(plan), status: 201, links: [
                    Link(name: "delete", operationId: "deletePlan", parameters: ["tenantId": "$request.path.tenantId", "productId": "$response.body#/productId"]),
                    Link(name: "list", operationId: "listPlans", parameters: ["tenantId": "$request.path.tenantId"]),
                ])),
            operation(endpoints.plans, .ok(.ref("StorePlans"), .wire(DatacoveWire.StorePlans(data: [plan])))),
            operation(endpoints.deletePlan, .empty()),
            operation(endpoints.updateTrialConfig, body: .json(.ref("TrialConfig"), example: trial),
                .ok(.ref("TrialConfig"), trial, links: [Link(name: "read", operationId: "getTrialConfig", parameters: ["tenantId": "$request.path.tenantId"])])),
            operation(endpoints.trialConfig, .ok(.ref("TrialConfig"), trial)),
        ]
    }
}
