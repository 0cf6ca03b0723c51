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
        admin.on(AdminWire.Endpoints.listWorkflowDefinitions, .async { _, context in
            let definitions = try await engine.definitions(tenantID: context.parameter("tenantId"))
            return try .json(AdminWire.List(data: definitions.map(AdminWire.WorkflowDefinition.init)))
        })
        admin.on(AdminWire.Endpoints.getWorkflowDefinition, .async { _, context in
            let definition = try await engine.definition(tenantID: context.parameter("tenantId"), id: context.parameter("workflowId"))
            return try .json(AdminWire.WorkflowDefinition(definition))
        })
        admin.on(AdminWire.Endpoints.putWorkflowDefinition, .async { request, context in
            let body = try StrictJSON.decode(
                AdminWire.WorkflowDefinition.self, from: request, fields: definitionFields,
                integers: ["credits": StrictJSON.counts, "timeoutSeconds": StrictJSON.counts])
            let id = context.parameter("workflowId")
            if let named = body.id, named != id { throw HTTPError.badRequest("id must match the path", code: "invalid_definition") }
            let saved = try await engine.saveDefinition(tenantID: context.parameter("tenantId"), try WorkflowDefinition(body, id: id))
            return try .json(AdminWire.WorkflowDefinition(saved))
        })
        admin.on(AdminWire.Endpoints.deleteWorkflowDefinition, .async { _, context in
            try await engine.deleteDefinition(tenantID: context.parameter("tenantId"), id: context.parameter("workflowId"))
            return .empty()
        })
        admin.on(AdminWire.Endpoints.getWorkflowSettings, .async { _, context in
            try .json(AdminWire.WorkflowSettings(try await engine.tenantSettings(tenantID: context.parameter("tenantId"))))
        })
        admin.on(AdminWire.Endpoints.updateWorkflowSettings, .async { request, context in
            let fields = Set(AdminWire.WorkflowSettingsPatch.CodingKeys.allCases.map(\.stringValue))
            _ = try StrictJSON.decode(AdminWire.WorkflowSettingsPatch.self, from: request, fields: fields, integers: ["maxConcurrentRuns": StrictJSON.counts])
            let patch = try WorkflowTenantSettingsPatch(try StrictJSON.Body(request, fields: fields).members)
            return try .json(AdminWire.WorkflowSettings(try await engine.updateTenantSettings(tenantID: context.parameter("tenantId"), patch)))
        })
        admin.on(AdminWire.Endpoints.grantCredits, .async { request, context in
            // The commerce engine's own bounds, so that the refusal names them.
            let body = try StrictJSON.decode(AdminWire.CreditGrant.self, from: request, fields: ["credits"], integers: ["credits": 1...1_000_000_000])
            let balance = try await commerce.grantCredits(
                tenantID: context.parameter("tenantId"), accountID: context.parameter("accountId"), credits: body.credits)
            return try .json(AdminWire.WalletBalance(wallet: balance))
        })
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
    /// Read by key, so that `null` (clear) and a missing key (keep) differ.
    init(_ fields: [String: JSONValue]) throws {
        typealias Keys = AdminWire.WorkflowSettingsPatch.CodingKeys
        self.init()
        func text(_ key: Keys) throws -> String?? {
            guard let value = fields[key.stringValue] else { return nil }
            if value == .null { return .some(nil) }
            guard let string = value.string else { throw HTTPError.badRequest("\(key.stringValue) must be a string or null", code: "invalid_argument") }
            return .some(string)
        }
        func url(_ key: Keys) throws -> URL?? {
            guard let value = try text(key) else { return nil }
            guard let string = value else { return .some(nil) }
            guard let url = URL(string: string) else { throw HTTPError.badRequest("\(key.stringValue) must be a URL", code: "invalid_argument") }
            return .some(url)
        }
        workerURL = try url(.workerUrl)
        workerSecret = try text(.workerSecret)
        openAIBaseURL = try url(.openaiBaseUrl)
        openAIAPIKey = try text(.openaiApiKey)
        openAIModel = try text(.openaiModel)
        if let value = fields[Keys.maxConcurrentRuns.stringValue] {
            guard let limit = value.int else { throw HTTPError.badRequest("maxConcurrentRuns must be a whole number", code: "invalid_argument") }
            maxConcurrentRuns = limit
        }
    }
}
