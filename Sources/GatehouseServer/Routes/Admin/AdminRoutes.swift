import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The operator API: tenants, applications and API keys.
enum AdminRoutes {
    /// Registers the routes and returns the authenticated group for other admin routes.
    @discardableResult
    static func register(on router: Router, directory: TenantDirectory, configuredToken: String?, logger: Logger) -> RouteGroup {
        router.renderErrors(under: "/admin") { error, _, context in AdminError.render(error, context: context, logger: logger) }
        let auth = AdminAuthentication(directory: directory, configuredToken: configuredToken)
        return router.group("/admin/v1", middleware: [auth]) { admin in
            admin.post("/tenants", .async { request, _ in
                let body = try StrictJSON.decode(AdminWire.CreateTenant.self, from: request, fields: ["name"])
                return try .json(AdminWire.Tenant(try await directory.createTenant(name: body.name)), status: 201)
            })
            admin.get("/tenants", .async { _, _ in
                try .json(AdminWire.List(data: try await directory.tenants().map(AdminWire.Tenant.init)))
            })
            admin.get("/tenants/:tenantId", .async { _, context in
                try .json(AdminWire.Tenant(try await directory.tenant(id: context.parameter("tenantId"))))
            })
            admin.post("/tenants/:tenantId/disable", .async { _, context in
                try await directory.disableTenant(id: context.parameter("tenantId"))
                return .empty()
            })
            admin.post("/tenants/:tenantId/enable", .async { _, context in
                try .json(AdminWire.Tenant(try await directory.enableTenant(id: context.parameter("tenantId"))))
            })
            admin.post("/tenants/:tenantId/applications", .async { request, context in
                let body = try StrictJSON.decode(AdminWire.CreateApplication.self, from: request, fields: ["name"])
                let app = try await directory.createApplication(tenantID: context.parameter("tenantId"), name: body.name)
                return try .json(AdminWire.Application(app), status: 201)
            })
            admin.get("/tenants/:tenantId/applications", .async { _, context in
                let apps = try await directory.applications(tenantID: context.parameter("tenantId"))
                return try .json(AdminWire.List(data: apps.map(AdminWire.Application.init)))
            })
            admin.post("/tenants/:tenantId/keys", .async { request, context in
                let body = try StrictJSON.decode(AdminWire.CreateKey.self, from: request, fields: ["label", "applicationId", "platform"])
                let issued = try await directory.issueKey(
                    tenantID: context.parameter("tenantId"), applicationID: body.applicationId, label: body.label, platform: body.platform)
                return try .json(AdminWire.IssuedKey(key: AdminWire.Key(issued.key), secret: issued.secret), status: 201)
            })
            admin.get("/tenants/:tenantId/keys", .async { _, context in
                let keys = try await directory.keys(tenantID: context.parameter("tenantId"))
                return try .json(AdminWire.List(data: keys.map(AdminWire.Key.init)))
            })
            admin.delete("/tenants/:tenantId/keys/:keyId", .async { _, context in
                try await directory.revokeKey(tenantID: context.parameter("tenantId"), keyID: context.parameter("keyId"))
                return .empty()
            })
        }
    }
}
