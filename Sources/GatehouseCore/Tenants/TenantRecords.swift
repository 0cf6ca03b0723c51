import Foundation
import GatehouseDatabase

/// A customer of this Gatehouse installation; everything else belongs to one.
public struct Tenant: Sendable, Equatable, Codable {
    public let id: String
    public let name: String
    public let createdAt: Date
    public let disabledAt: Date?

    init(row: Row) throws {
        id = try row.get("id")
        name = try row.get("name")
        createdAt = try row.get("created_at")
        disabledAt = try row.get("disabled_at")
    }
}

/// One app of a tenant (an iOS app, a backend); keys may be bound to it.
public struct Application: Sendable, Equatable, Codable {
    public let id: String
    public let tenantId: String
    public let name: String
    public let createdAt: Date

    init(row: Row) throws {
        id = try row.get("id")
        tenantId = try row.get("tenant_id")
        name = try row.get("name")
        createdAt = try row.get("created_at")
    }
}

/// An API key as stored: never the secret, only its hash.
public struct APIKey: Sendable, Equatable, Codable {
    public let id: String
    public let tenantId: String
    public let applicationId: String?
    public let label: String
    /// `IOS`, `ANDROID` or `WEB` for keys that apps send as `x-api-key`.
    public let platform: String?
    public let createdAt: Date
    public let revokedAt: Date?

    init(row: Row) throws {
        id = try row.get("id")
        tenantId = try row.get("tenant_id")
        applicationId = try row.get("application_id")
        label = try row.get("label")
        platform = try row.get("platform")
        createdAt = try row.get("created_at")
        revokedAt = try row.get("revoked_at")
    }
}

/// A key just issued: the only moment its secret exists outside the caller's hands.
public struct IssuedKey: Sendable {
    public let key: APIKey
    /// `ghk_<key id hex>.<secret>`; shown once, stored only as a hash.
    public let secret: String
}
