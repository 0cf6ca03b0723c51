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
        admin.on(AdminWire.Endpoints.createTenant, .async { request, _ in
            let body = try StrictJSON.decode(AdminWire.CreateTenant.self, from: request, fields: ["name"])
            return try .json(AdminWire.Tenant(try await directory.createTenant(name: body.name)), status: 201)
        })
        admin.on(AdminWire.Endpoints.listTenants, .async { _, _ in
            try .json(AdminWire.List(data: try await directory.tenants().map(AdminWire.Tenant.init)))
        })
        admin.on(AdminWire.Endpoints.getTenant, .async { _, context in
            try .json(AdminWire.Tenant(try await directory.tenant(id: context.parameter("tenantId"))))
        })
        admin.on(AdminWire.Endpoints.disableTenant, .async { _, context in
            try await directory.disableTenant(id: context.parameter("tenantId"))
            return .empty()
        })
        admin.on(AdminWire.Endpoints.enableTenant, .async { _, context in
            try .json(AdminWire.Tenant(try await directory.enableTenant(id: context.parameter("tenantId"))))
        })
        admin.on(AdminWire.Endpoints.createApplication, .async { request, context in
            let body = try StrictJSON.decode(AdminWire.CreateApplication.self, from: request, fields: ["name"])
            let app = try await directory.createApplication(tenantID: context.parameter("tenantId"), name: body.name)
            return try .json(AdminWire.Application(app), status: 201)
        })
        admin.on(AdminWire.Endpoints.listApplications, .async { _, context in
            let apps = try await directory.applications(tenantID: context.parameter("tenantId"))
            return try .json(AdminWire.List(data: apps.map(AdminWire.Application.init)))
        })
        admin.on(AdminWire.Endpoints.createKey, .async { request, context in
            let body = try StrictJSON.decode(AdminWire.CreateKey.self, from: request, fields: ["label", "applicationId", "platform"])
            let issued = try await directory.issueKey(
                tenantID: context.parameter("tenantId"), applicationID: body.applicationId, label: body.label, platform: body.platform)
            return try .json(AdminWire.IssuedKey(key: AdminWire.Key(issued.key), secret: issued.secret), status: 201)
        })
        admin.on(AdminWire.Endpoints.listKeys, .async { _, context in
            let keys = try await directory.keys(tenantID: context.parameter("tenantId"))
            return try .json(AdminWire.List(data: keys.map(AdminWire.Key.init)))
        })
        admin.on(AdminWire.Endpoints.revokeKey, .async { _, context in
            try await directory.revokeKey(tenantID: context.parameter("tenantId"), keyID: context.parameter("keyId"))
            return .empty()
        })
        return admin
    }
}
