import GatehouseManagedAPIsEngine
import GatehouseRules

/// Workflow shapes both the admin API and the Datacove dialect use (`DatacoveWire.WorkflowInput`).
enum WorkflowSchemas {
    static let input: [String: Schema] = [
        "WorkflowInput": .object([
            "key": .string, "label": .string, "type": .string, "placeholder": .string,
            "validation": .object([
                "required": .boolean, "minLength": .integer, "maxLength": .integer, "pattern": .string, "min": .number, "max": .number,
            ], optional: ["required", "minLength", "maxLength", "pattern", "min", "max"]),
            "options": .array(.object(["value": .string, "label": .string])),
            "fileOptions": .object(["accept": .string, "maxSizeMb": .number, "multiple": .boolean]),
        ], optional: ["placeholder", "validation", "options", "fileOptions"]),
    ]
}

extension AdminSchemas {
    static let workflows: [String: Schema] = [
        "WorkflowDefinition": .object([
            "id": .string, "name": .string, "description": .string, "category": .string, "featured": .boolean, "credits": .integer(minimum: 0),
            "enabled": .boolean, "responseType": .oneOf(["sync", "event"]), "timeoutSeconds": .integer(minimum: 1),
            "executor": .object(["kind": .string, "config": .map(.any)], optional: ["config"]),
            "inputs": .array(.ref("WorkflowInput")),
        ], optional: ["id", "description", "category", "featured", "credits", "enabled", "responseType", "timeoutSeconds", "inputs"]),
        "WorkflowDefinitionList": list("WorkflowDefinition"),
        "WorkflowSettings": .object([
            "workerUrl": .string, "hasWorkerSecret": .boolean, "openaiBaseUrl": .string, "hasOpenaiApiKey": .boolean, "openaiModel": .string,
            "maxConcurrentRuns": .integer,
        ], optional: ["workerUrl", "openaiBaseUrl", "openaiModel"]),
        "WorkflowSettingsPatch": .object([
            "workerUrl": Schema.string.orNull, "workerSecret": Schema.string.orNull, "openaiBaseUrl": Schema.string.orNull,
            "openaiApiKey": Schema.string.orNull, "openaiModel": Schema.string.orNull, "maxConcurrentRuns": .integer(minimum: 1),
        ], optional: ["workerUrl", "workerSecret", "openaiBaseUrl", "openaiApiKey", "openaiModel", "maxConcurrentRuns"]),
        "CreditGrant": .object(["credits": .integer]),
        "WalletBalance": .object(["wallet": .integer]),
    ]

    static let managedAPIs: [String: Schema] = [
        "ManagedAPIDefinition": .object([
            "name": .string, "displayName": .string, "baseUrl": .string(format: "uri"),
            "authType": .oneOf(ManagedAPIDefinition.AuthType.allCases.map(\.rawValue)), "mode": .oneOf(ManagedAPIDefinition.Mode.allCases.map(\.rawValue)),
            "development": .boolean, "metadata": .map(.string),
            "basic": .object(["username": .string, "password": .string], optional: ["password"]),
            "bearerToken": .string,
            "apiKey": .object(["placement": .oneOf(ManagedAPIDefinition.KeyPlacement.allCases.map(\.rawValue)), "name": .string, "value": .string], optional: ["value"]),
            "oauth2": .object([
                "grant": .oneOf(ManagedAPIDefinition.Grant.allCases.map(\.rawValue)), "authorizationEndpoint": .string, "tokenEndpoint": .string, "clientId": .string, "clientSecret": .string,
                "scopes": .array(.string), "authorizationParams": .map(.string), "rotatesRefreshTokens": .boolean,
                "tokenEndpointAuthMethod": .oneOf(ManagedAPIDefinition.TokenEndpointAuth.allCases.map(\.rawValue)),
            ], optional: ["authorizationEndpoint", "clientSecret", "scopes", "authorizationParams", "rotatesRefreshTokens", "tokenEndpointAuthMethod"]),
            "hasSecret": .boolean, "updatedAt": .dateTime,
        ], optional: ["name", "development", "metadata", "basic", "bearerToken", "apiKey", "oauth2", "hasSecret", "updatedAt"]),
        "ManagedAPIDefinitionList": list("ManagedAPIDefinition"),
    ]

    static let possession: [String: Schema] = [
        "PossessionSettings": .object([
            "environment": .oneOf(["sandbox", "production"]), "returnFullSsn": .boolean,
            "carrier": .object([
                "authorizationEndpoint": .string, "tokenEndpoint": .string, "apiBase": .string, "clientId": .string, "redirectUri": .string,
                "development": .boolean,
            ], optional: ["development"]),
            "carrierSecret": .string, "hasCarrierSecret": .boolean, "identities": .integer,
        ], optional: ["returnFullSsn", "carrier", "carrierSecret", "hasCarrierSecret", "identities"]),
        "PossessionClient": .object(["clientId": .string, "label": .string, "createdAt": .dateTime, "clientSecret": .string], optional: ["clientSecret"]),
        "PossessionClientList": list("PossessionClient"),
        "CreatePossessionClient": .object(["label": .string]),
        "IdentityImport": .object(["identities": .array(.ref("Identity"))]),
        "IdentityImported": .object(["imported": .integer]),
        "Address": PossessionDocument.address,
        "Identity": .object([
            "phoneNumber": .string, "firstName": .string, "lastName": .string, "addresses": .array(.ref("Address")),
            "emailAddresses": .array(.string), "dob": .string, "ssn": .string,
        ], optional: ["addresses", "emailAddresses", "dob", "ssn"]),
    ]
}
