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

    static func operation<Body, Answer>(_ endpoint: Endpoint<Body, Answer>, body: Content? = nil, _ replies: Reply...) -> Operation {
        Operation(endpoint.described, body: body, replies: replies)
    }

    static var core: [Operation] {
        let key = AdminWire.Key(
            id: "01a2b3c4-0000-7000-8000-000000000003", tenantId: tenant.id, applicationId: nil, label: "ci", platform: "IOS",
            createdAt: "2026-12-01T10:00:00.000Z", revoked: false)
        let app = AdminWire.Application(id: "01a2b3c4-0000-7000-8000-000000000002", tenantId: tenant.id, name: "iOS app", createdAt: "2026-12-01T10:00:00.000Z")
        let byTenant = ["tenantId": "$response.body#/id"]
        return [
            operation(AdminWire.Endpoints.createTenant, body: .json(.ref("CreateTenant"), example: .wire(AdminWire.CreateTenant(name: "Acme"))),
                .ok(.ref("Tenant"), .wire(tenant), status: 201, links: [
                    Link(name: "get", operationId: "getTenant", parameters: byTenant),
                    Link(name: "createApplication", operationId: "createApplication", parameters: byTenant),
                    Link(name: "createKey", operationId: "createKey", parameters: byTenant),
                ])),
            operation(AdminWire.Endpoints.listTenants, .ok(.ref("TenantList"), .wire(AdminWire.List(data: [tenant])))),
            operation(AdminWire.Endpoints.getTenant, .ok(.ref("Tenant"), .wire(tenant))),
            operation(AdminWire.Endpoints.disableTenant, .empty()),
            operation(AdminWire.Endpoints.enableTenant, .ok(.ref("Tenant"), .wire(tenant))),
            operation(AdminWire.Endpoints.createApplication,
                body: .json(.ref("CreateApplication"), example: .wire(AdminWire.CreateApplication(name: "iOS app"))),
                .ok(.ref("Application"), .wire(app), status: 201)),
            operation(AdminWire.Endpoints.listApplications,
                .ok(.ref("ApplicationList"), .wire(AdminWire.List(data: [app])))),
            operation(AdminWire.Endpoints.createKey,
                body: .json(.ref("CreateKey"), example: .wire(AdminWire.CreateKey(label: "ci", platform: "IOS"))),
                .ok(.ref("IssuedKey"), .wire(AdminWire.IssuedKey(key: key, secret: "ghk_0123.secret")), status: 201, links: [
                    Link(name: "revoke", operationId: "revokeKey", parameters: ["tenantId": "$response.body#/key/tenantId", "keyId": "$response.body#/key/id"]),
                ])),
            operation(AdminWire.Endpoints.listKeys, .ok(.ref("KeyList"), .wire(AdminWire.List(data: [key])))),
            operation(AdminWire.Endpoints.revokeKey, .empty()),
            operation(AdminWire.Endpoints.rotateTokenKey, .empty()),
        ]
    }
}
