import GatehouseWire
import GatehouseHTTP

/// The operator's API under `/admin/v1`, with the admin token as a bearer token.
enum AdminDocument {
    static var document: Document {
        Document(
            name: "admin", title: "Gatehouse admin API",
            description: "Tenants, applications, API keys, OTP applications, test numbers, balances, workflows, managed APIs and "
                + "possession settings, with `Authorization: Bearer <admin token>`. Unknown JSON fields are refused with `unknown_field`.",
            securitySchemes: ["adminToken": .object(["type": .string("http"), "scheme": .string("bearer")])],
            security: [["adminToken"]], error: .ref("Error"),
            schemas: AdminSchemas.core.merging(AdminSchemas.verification) { a, _ in a }.merging(AdminSchemas.workflows) { a, _ in a }
                .merging(AdminSchemas.managedAPIs) { a, _ in a }.merging(AdminSchemas.possession) { a, _ in a }
                .merging(WorkflowSchemas.input) { a, _ in a },
            operations: core + verification + prefixBlocks + workflows + managedAPIs + possession)
    }

    static let prefix = "/admin/v1"
    static let tenant = AdminWire.Tenant(id: "01a2b3c4-0000-7000-8000-000000000001", name: "Acme", createdAt: "2026-12-01T10:00:00.000Z", disabled: false)

    static func operation(
        _ method: HTTPMethodName, _ path: String, _ id: String, _ summary: String, body: Content? = nil, _ replies: Reply...
    ) -> Operation {
        Operation(method: method.method, path: prefix + path, id: id, summary: summary, body: body, replies: replies)
    }

    static var core: [Operation] {
        let key = AdminWire.Key(
            id: "01a2b3c4-0000-7000-8000-000000000003", tenantId: tenant.id, applicationId: nil, label: "ci", platform: "IOS",
            createdAt: "2026-12-01T10:00:00.000Z", revoked: false)
        let app = AdminWire.Application(id: "01a2b3c4-0000-7000-8000-000000000002", tenantId: tenant.id, name: "iOS app", createdAt: "2026-12-01T10:00:00.000Z")
        let byTenant = ["tenantId": "$response.body#/id"]
        return [
            operation(.post, "/tenants", "createTenant", "Create a tenant", body: .json(.ref("CreateTenant"), example: .wire(AdminWire.CreateTenant(name: "Acme"))),
                .ok(.ref("Tenant"), .wire(tenant), status: 201, links: [
                    Link(name: "get", operationId: "getTenant", parameters: byTenant),
                    Link(name: "createApplication", operationId: "createApplication", parameters: byTenant),
                    Link(name: "createKey", operationId: "createKey", parameters: byTenant),
                ])),
            operation(.get, "/tenants", "listTenants", "Every tenant", .ok(.ref("TenantList"), .wire(AdminWire.List(data: [tenant])))),
            operation(.get, "/tenants/:tenantId", "getTenant", "One tenant", .ok(.ref("Tenant"), .wire(tenant))),
            operation(.post, "/tenants/:tenantId/disable", "disableTenant", "Refuse the tenant's keys and tokens until enabled", .empty()),
            operation(.post, "/tenants/:tenantId/enable", "enableTenant", "Enable a disabled tenant", .ok(.ref("Tenant"), .wire(tenant))),
            operation(.post, "/tenants/:tenantId/applications", "createApplication", "Create an application",
                body: .json(.ref("CreateApplication"), example: .wire(AdminWire.CreateApplication(name: "iOS app"))),
                .ok(.ref("Application"), .wire(app), status: 201)),
            operation(.get, "/tenants/:tenantId/applications", "listApplications", "The tenant's applications",
                .ok(.ref("ApplicationList"), .wire(AdminWire.List(data: [app])))),
            operation(.post, "/tenants/:tenantId/keys", "createKey", "Issue an API key (the secret is shown once)",
                body: .json(.ref("CreateKey"), example: .wire(AdminWire.CreateKey(label: "ci", platform: "IOS"))),
                .ok(.ref("IssuedKey"), .wire(AdminWire.IssuedKey(key: key, secret: "ghk_0123.secret")), status: 201, links: [
                    Link(name: "revoke", operationId: "revokeKey", parameters: ["tenantId": "$response.body#/key/tenantId", "keyId": "$response.body#/key/id"]),
                ])),
            operation(.get, "/tenants/:tenantId/keys", "listKeys", "The tenant's keys, without secrets", .ok(.ref("KeyList"), .wire(AdminWire.List(data: [key])))),
            operation(.delete, "/tenants/:tenantId/keys/:keyId", "revokeKey", "Revoke a key", .empty()),
            operation(.post, "/tenants/:tenantId/token-keys/rotate", "rotateTokenKey", "Start signing sessions with a new key", .empty()),
        ]
    }
}

/// Lower-case method names keep the operation tables readable.
enum HTTPMethodName {
    case get, post, put, patch, delete

    var method: GatehouseHTTP.HTTPMethod {
        switch self {
        case .get: .GET
        case .post: .POST
        case .put: .PUT
        case .patch: .PATCH
        case .delete: .DELETE
        }
    }
}
