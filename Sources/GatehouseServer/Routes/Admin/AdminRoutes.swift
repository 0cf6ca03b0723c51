import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The operator API: tenants, applications and API keys.
enum AdminRoutes {
    /// Registers the routes and returns the registrar of the other admin routes.
    @discardableResult
    static func register(on router: Router, directory: TenantDirectory, configuredToken: String?, logger: Logger) -> AdminRegistrar {
        router.renderErrors(under: "/admin") { error, _, context in AdminError.render(error, context: context, logger: logger) }
        let admin = AdminRegistrar(router: router, authentication: AdminAuthentication(directory: directory, configuredToken: configuredToken))
        admin.on(AdminWire.Endpoints.createTenant, status: 201, fields: ["name"]) { body, _ in
            AdminWire.Tenant(try await directory.createTenant(name: body.name))
        }
        admin.on(AdminWire.Endpoints.listTenants) { _, _ in
            AdminWire.List(data: try await directory.tenants().map(AdminWire.Tenant.init))
        }
        admin.on(AdminWire.Endpoints.getTenant) { _, context in
            AdminWire.Tenant(try await directory.tenant(id: context.parameter("tenantId")))
        }
        admin.on(AdminWire.Endpoints.disableTenant) { _, context in
            try await directory.disableTenant(id: context.parameter("tenantId"))
            return NoBody()
        }
        admin.on(AdminWire.Endpoints.enableTenant) { _, context in
            AdminWire.Tenant(try await directory.enableTenant(id: context.parameter("tenantId")))
        }
        admin.on(AdminWire.Endpoints.createApplication, status: 201, fields: ["name"]) { body, context in
            AdminWire.Application(try await directory.createApplication(tenantID: context.parameter("tenantId"), name: body.name))
        }
        admin.on(AdminWire.Endpoints.listApplications) { _, context in
            AdminWire.List(data: try await directory.applications(tenantID: context.parameter("tenantId")).map(AdminWire.Application.init))
        }
        admin.on(AdminWire.Endpoints.createKey, status: 201, fields: ["label", "applicationId", "platform"]) { body, context in
            let issued = try await directory.issueKey(
                tenantID: context.parameter("tenantId"), applicationID: body.applicationId, label: body.label, platform: body.platform)
            return AdminWire.IssuedKey(key: AdminWire.Key(issued.key), secret: issued.secret)
        }
        admin.on(AdminWire.Endpoints.listKeys) { _, context in
            AdminWire.List(data: try await directory.keys(tenantID: context.parameter("tenantId")).map(AdminWire.Key.init))
        }
        admin.on(AdminWire.Endpoints.revokeKey) { _, context in
            try await directory.revokeKey(tenantID: context.parameter("tenantId"), keyID: context.parameter("keyId"))
            return NoBody()
        }
        return admin
    }
}
