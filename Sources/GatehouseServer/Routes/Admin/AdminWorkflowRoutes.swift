import Foundation
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseWorkflowsEngine
import GatehouseFormats

/// The operator's workflow API: a tenant's definitions and executor settings, and credit grants.
enum AdminWorkflowRoutes {
    static func register(on admin: AdminRegistrar, engine: WorkflowsEngine, commerce: CommerceEngine) {
        let definitionFields = Set(AdminWire.WorkflowDefinition.CodingKeys.allCases.map(\.stringValue))
        admin.on(AdminWire.Endpoints.listWorkflowDefinitions) { _, context in
            AdminWire.List(data: try await engine.definitions(tenantID: context.parameter("tenantId")).map(AdminWire.WorkflowDefinition.init))
        }
        admin.on(AdminWire.Endpoints.getWorkflowDefinition) { _, context in
            AdminWire.WorkflowDefinition(try await engine.definition(tenantID: context.parameter("tenantId"), id: context.parameter("workflowId")))
        }
        admin.on(AdminWire.Endpoints.putWorkflowDefinition, fields: definitionFields, integers: ["credits": StrictJSON.counts, "timeoutSeconds": StrictJSON.counts]) {
            body, context in
            let id = context.parameter("workflowId")
            if let named = body.id, named != id { throw HTTPError.badRequest("id must match the path", code: "invalid_definition") }
            return AdminWire.WorkflowDefinition(try await engine.saveDefinition(tenantID: context.parameter("tenantId"), try WorkflowDefinition(body, id: id)))
        }
        admin.on(AdminWire.Endpoints.deleteWorkflowDefinition) { _, context in
            try await engine.deleteDefinition(tenantID: context.parameter("tenantId"), id: context.parameter("workflowId"))
            return NoBody()
        }
        admin.on(AdminWire.Endpoints.getWorkflowSettings) { _, context in
            AdminWire.WorkflowSettings(try await engine.tenantSettings(tenantID: context.parameter("tenantId")))
        }
        let settingsFields = Set(AdminWire.WorkflowSettingsPatch.CodingKeys.allCases.map(\.stringValue))
        admin.on(AdminWire.Endpoints.updateWorkflowSettings, fields: settingsFields, integers: ["maxConcurrentRuns": StrictJSON.counts]) { body, context in
            AdminWire.WorkflowSettings(try await engine.updateTenantSettings(tenantID: context.parameter("tenantId"), try WorkflowTenantSettingsPatch(body)))
        }
        // The commerce engine's own bounds, so that the refusal names them.
        admin.on(AdminWire.Endpoints.grantCredits, fields: ["credits"], integers: ["credits": 1...1_000_000_000]) { body, context in
            let balance = try await commerce.grantCredits(
                tenantID: context.parameter("tenantId"), accountID: context.parameter("accountId"), credits: body.credits)
            return AdminWire.WalletBalance(wallet: balance)
        }
    }
}

extension AdminWire.WorkflowDefinition {
    init(_ definition: WorkflowDefinition) {
        self.init(
            id: definition.id, name: definition.name, description: definition.description, category: definition.category,
            featured: definition.featured, credits: definition.credits, enabled: definition.enabled,
            responseType: definition.response.rawValue, timeoutSeconds: definition.timeoutSeconds,
            executor: .init(kind: definition.executor.kind, config: definition.executor.configuration), inputs: definition.inputs)
    }
}

extension WorkflowDefinition {
    init(_ body: AdminWire.WorkflowDefinition, id: String) throws {
        let response = try body.responseType.map { type -> ResponseKind in
            guard let kind = ResponseKind(rawValue: type) else { throw HTTPError.badRequest("responseType must be sync or event", code: "invalid_definition") }
            return kind
        }
        self.init(
            id: id, name: body.name, description: body.description ?? "", category: body.category ?? "general",
            featured: body.featured ?? false, credits: body.credits ?? 0, enabled: body.enabled ?? true, response: response ?? .event,
            executor: .init(kind: body.executor.kind, configuration: body.executor.config ?? [:]), inputs: body.inputs ?? [],
            timeoutSeconds: body.timeoutSeconds ?? 600)
    }
}

extension AdminWire.WorkflowSettings {
    init(_ settings: WorkflowTenantSettings) {
        self.init(
            workerUrl: settings.workerURL?.absoluteString, hasWorkerSecret: settings.workerSecret != nil,
            openaiBaseUrl: settings.openAIBaseURL?.absoluteString, hasOpenaiApiKey: settings.openAIAPIKey != nil,
            openaiModel: settings.openAIModel, maxConcurrentRuns: settings.maxConcurrentRuns)
    }
}

extension WorkflowTenantSettingsPatch {
    /// Absent keeps a setting, `null` clears it (`.some(nil)`).
    init(_ wire: AdminWire.WorkflowSettingsPatch) throws {
        self.init()
        func url(_ value: Nullable<String>?, _ key: AdminWire.WorkflowSettingsPatch.CodingKeys) throws -> URL?? {
            try value.map { text in
                try text.wrapped.map { string in
                    guard let url = URL(string: string) else { throw HTTPError.badRequest("\(key.stringValue) must be a URL", code: "invalid_argument") }
                    return url
                }
            }
        }
        workerURL = try url(wire.workerUrl, .workerUrl)
        workerSecret = wire.workerSecret.map(\.wrapped)
        openAIBaseURL = try url(wire.openaiBaseUrl, .openaiBaseUrl)
        openAIAPIKey = wire.openaiApiKey.map(\.wrapped)
        openAIModel = wire.openaiModel.map(\.wrapped)
        maxConcurrentRuns = wire.maxConcurrentRuns
    }
}
