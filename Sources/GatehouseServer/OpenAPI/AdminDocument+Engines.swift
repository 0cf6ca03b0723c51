import GatehouseWire
import GatehouseRules

/// The admin operations of each engine: verification, workflows, managed APIs, possession.
extension AdminDocument {
    static let at = "2026-12-01T10:00:00.000Z"

    static var verification: [Operation] {
        let app = AdminWire.OTPApplication(
            id: "01a2b3c4-0000-7000-8000-000000000004", tenantId: tenant.id, name: "Shop", appKey: "vk_7gxc8B0V5vSACcU0", minimumAuth: "basic",
            callbackUrl: nil, smsDomain: "shop.example", codeLength: 6, lifetimeSeconds: 300, maxAttempts: 3, paused: false, disabledCountries: [],
            dailyLimit: 1000, monthlyLimit: nil, cooldownSeconds: 30, smsFee: "0.05", calloutFee: "0.10", createdAt: at)
        var shop = AdminWire.OTPApplicationSettings()
        (shop.name, shop.minimumAuth, shop.cooldownSeconds, shop.dailyLimit) = ("Shop", "basic", 0, .null)
        let settings = Example.wire(shop)
        let testNumber = AdminWire.TestNumber(destination: "+14155550199", code: "135790", confirmed: false, createdAt: at)
        var templatePut = operation(AdminWire.Endpoints.putTemplate,
            body: .json(.ref("Template"), example: .wire(AdminWire.Template(body: "Your Shop code is {{CODE}}"))), .empty())
        templatePut.pathSchemas = ["channel": .oneOf(["sms", "callout"])]
        var templateDelete = operation(AdminWire.Endpoints.deleteTemplate, .empty())
        templateDelete.pathSchemas = templatePut.pathSchemas
        var outbox = operation(AdminWire.Endpoints.readOutbox,
            .ok(.ref("OutboxList"), .wire(AdminWire.List(data: [AdminWire.OutboxMessage(to: "14155550123", channel: "sms", body: "Your code is 123456", createdAt: at)]))))
        outbox.query = [Parameter(name: "to", required: true, description: "digits of a number, or an email address")]
        return [
            operation(AdminWire.Endpoints.createOTPApplication,
                body: .json(.ref("OTPApplicationSettings"), example: settings),
                .ok(.ref("CreatedOTPApplication"), .wire(AdminWire.CreatedOTPApplication(application: app, secret: "uI70JJVOXNjOYYdI")), status: 201, links: [
                    Link(name: "get", operationId: "getOTPApplication", parameters: ["tenantId": "$response.body#/application/tenantId", "appId": "$response.body#/application/id"]),
                ])),
            operation(AdminWire.Endpoints.listOTPApplications,
                .ok(.ref("OTPApplicationList"), .wire(AdminWire.List(data: [app])))),
            operation(AdminWire.Endpoints.getOTPApplication,
                .ok(.ref("OTPApplication"), .wire(app))),
            operation(AdminWire.Endpoints.updateOTPApplication,
                body: .json(.ref("OTPApplicationSettings"), example: settings), .ok(.ref("OTPApplication"), .wire(app))),
            templatePut, templateDelete,
            operation(AdminWire.Endpoints.listTestNumbers,
                .ok(.ref("TestNumberList"), .wire(AdminWire.List(data: [testNumber])))),
            operation(AdminWire.Endpoints.addTestNumber,
                body: .json(.ref("TestNumber"), example: .wire(AdminWire.TestNumber(destination: "+14155550199", code: "135790"))),
                .ok(.ref("TestNumber"), .wire(testNumber), status: 201)),
            operation(AdminWire.Endpoints.removeTestNumber, .empty()),
            operation(AdminWire.Endpoints.getVerificationBalance,
                .ok(.ref("Balance"), .wire(AdminWire.Balance(balance: "100.00")))),
            operation(AdminWire.Endpoints.adjustVerificationBalance,
                body: .json(.ref("BalanceChange"), example: .wire(AdminWire.BalanceChange(amount: "10.00"))), .ok(.ref("Balance"), .wire(AdminWire.Balance(balance: "110.00")))),
            outbox,
        ]
    }

    static var workflows: [Operation] {
        let definition = AdminWire.WorkflowDefinition(
            id: "wf-url-001", name: "Website check", description: "Checks a web address", category: "security", featured: true, credits: 0,
            enabled: true, responseType: "sync", timeoutSeconds: 30, executor: .init(kind: "url-check", config: [:]),
            inputs: [DatacoveWire.WorkflowInput(key: "url", label: "Website address", type: "url", validation: .init(required: true))])
        let settings = AdminWire.WorkflowSettings(workerUrl: nil, hasWorkerSecret: false, openaiBaseUrl: nil, hasOpenaiApiKey: false, openaiModel: nil, maxConcurrentRuns: 4)
        return [
            operation(AdminWire.Endpoints.listWorkflowDefinitions,
                .ok(.ref("WorkflowDefinitionList"), .wire(AdminWire.List(data: [definition])))),
            operation(AdminWire.Endpoints.getWorkflowDefinition, .ok(.ref("WorkflowDefinition"), .wire(definition))),
            operation(AdminWire.Endpoints.putWorkflowDefinition,
                body: .json(.ref("WorkflowDefinition"), example: .wire(definition)), .ok(.ref("WorkflowDefinition"), .wire(definition))),
            operation(AdminWire.Endpoints.deleteWorkflowDefinition, .empty()),
            operation(AdminWire.Endpoints.getWorkflowSettings,
                .ok(.ref("WorkflowSettings"), .wire(settings))),
            operation(AdminWire.Endpoints.updateWorkflowSettings,
                body: .json(.ref("WorkflowSettingsPatch"), example: .wire(AdminWire.WorkflowSettingsPatch(maxConcurrentRuns: 4))),
                .ok(.ref("WorkflowSettings"), .wire(settings))),
            operation(AdminWire.Endpoints.grantCredits,
                body: .json(.ref("CreditGrant"), example: .wire(AdminWire.CreditGrant(credits: 10))), .ok(.ref("WalletBalance"), .wire(AdminWire.WalletBalance(wallet: 10)))),
        ]
    }

    static var managedAPIs: [Operation] {
        let definition = AdminWire.ManagedAPIDefinition(
            name: "weather", displayName: "Weather", baseUrl: "https://api.weather.example", authType: "API_KEY", mode: "proxied",
            apiKey: .init(placement: "header", name: "x-api-key"), hasSecret: true, updatedAt: at)
        let saved = AdminWire.ManagedAPIDefinition(
            name: nil, displayName: "Weather", baseUrl: "https://api.weather.example", authType: "API_KEY", mode: "proxied",
            apiKey: .init(placement: "header", name: "x-api-key", value: "secret-key"))
        return [
            operation(AdminWire.Endpoints.listManagedAPIs,
                .ok(.ref("ManagedAPIDefinitionList"), .wire(AdminWire.List(data: [definition])))),
            operation(AdminWire.Endpoints.getManagedAPI, .ok(.ref("ManagedAPIDefinition"), .wire(definition))),
            operation(AdminWire.Endpoints.putManagedAPI,
                body: .json(.ref("ManagedAPIDefinition"), example: .wire(saved)), .ok(.ref("ManagedAPIDefinition"), .wire(definition))),
            operation(AdminWire.Endpoints.deleteManagedAPI, .empty()),
        ]
    }

    static var possession: [Operation] {
        let settings = AdminWire.PossessionSettings(environment: "sandbox", returnFullSsn: false, hasCarrierSecret: false, identities: 3)
        let client = AdminWire.PossessionClient(clientId: "ghpc_01a23336c87371d4", label: "backend", createdAt: at)
        let identity = AdminWire.Identity(
            phoneNumber: "+12025550123", firstName: "Tod", lastName: "Weedall",
            addresses: [ProveWire.Address(address: "39 South Trail", city: "San Antonio", region: "TX", postalCode: "78285")], dob: "1984-12-10")
        return [
            operation(AdminWire.Endpoints.getPossessionSettings, .ok(.ref("PossessionSettings"), .wire(settings))),
            operation(AdminWire.Endpoints.putPossessionSettings,
                body: .json(.ref("PossessionSettings"), example: .wire(AdminWire.PossessionSettings(environment: "sandbox", returnFullSsn: false))),
                .ok(.ref("PossessionSettings"), .wire(settings))),
            operation(AdminWire.Endpoints.listPossessionClients, .ok(.ref("PossessionClientList"), .wire(AdminWire.List(data: [client])))),
            operation(AdminWire.Endpoints.createPossessionClient,
                body: .json(.ref("CreatePossessionClient"), example: .wire(AdminWire.CreatePossessionClient(label: "backend"))),
                .ok(.ref("PossessionClient"), .wire(AdminWire.PossessionClient(clientId: client.clientId, label: "backend", createdAt: at, clientSecret: "T5nY-u5ul0fF8C2d")),
                    status: 201)),
            operation(AdminWire.Endpoints.revokePossessionClient, .empty()),
            operation(AdminWire.Endpoints.importIdentities,
                body: .json(.ref("IdentityImport"), example: .wire(AdminWire.IdentityImport(identities: [identity]))),
                .ok(.ref("IdentityImported"), .wire(AdminWire.IdentityImported(imported: 1)))),
            operation(AdminWire.Endpoints.removeIdentity, .empty()),
        ]
    }
}
