import Foundation
import GatehouseCore
import GatehouseWire
import GatehouseFormats

// Core records become wire values here and nowhere else.
extension AdminWire.Tenant {
    public init(_ tenant: Tenant) {
        self.init(
            id: tenant.id, name: tenant.name, createdAt: WireDate.string(tenant.createdAt), disabled: tenant.disabledAt != nil)
    }
}

extension AdminWire.Application {
    public init(_ app: Application) {
        self.init(id: app.id, tenantId: app.tenantId, name: app.name, createdAt: WireDate.string(app.createdAt))
    }
}

extension AdminWire.Key {
    public init(_ key: APIKey) {
        self.init(
            id: key.id, tenantId: key.tenantId, applicationId: key.applicationId, label: key.label, platform: key.platform,
            createdAt: WireDate.string(key.createdAt), revoked: key.revokedAt != nil)
    }
}
