import Foundation

/// Wire types of the operator API under `/admin/v1`, shared by the server and the CLI.
public enum AdminWire {
    public struct CreateTenant: Codable, Sendable, Equatable {
        public let name: String
        public init(name: String) { self.name = name }
    }

    public struct CreateApplication: Codable, Sendable, Equatable {
        public let name: String
        public init(name: String) { self.name = name }
    }

    public struct CreateKey: Codable, Sendable, Equatable {
        public let label: String
        public let applicationId: String?
        /// `IOS`, `ANDROID` or `WEB` for a key apps send as `x-api-key`.
        public let platform: String?
        public init(label: String, applicationId: String? = nil, platform: String? = nil) {
            self.label = label
            self.applicationId = applicationId
            self.platform = platform
        }
    }

    public struct Tenant: Codable, Sendable, Equatable {
        public let id: String
        public let name: String
        public let createdAt: String
        public let disabled: Bool
        public init(id: String, name: String, createdAt: String, disabled: Bool) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.disabled = disabled
        }
    }

    public struct Application: Codable, Sendable, Equatable {
        public let id: String
        public let tenantId: String
        public let name: String
        public let createdAt: String
        public init(id: String, tenantId: String, name: String, createdAt: String) {
            self.id = id
            self.tenantId = tenantId
            self.name = name
            self.createdAt = createdAt
        }
    }

    public struct Key: Codable, Sendable, Equatable {
        public let id: String
        public let tenantId: String
        public let applicationId: String?
        public let label: String
        public let platform: String?
        public let createdAt: String
        public let revoked: Bool
        public init(
            id: String, tenantId: String, applicationId: String?, label: String, platform: String? = nil, createdAt: String, revoked: Bool
        ) {
            self.id = id
            self.tenantId = tenantId
            self.applicationId = applicationId
            self.label = label
            self.platform = platform
            self.createdAt = createdAt
            self.revoked = revoked
        }
    }

    /// A key just issued; `secret` is shown this once.
    public struct IssuedKey: Codable, Sendable, Equatable {
        public let key: Key
        public let secret: String
        public init(key: Key, secret: String) {
            self.key = key
            self.secret = secret
        }
    }

    public struct List<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        public let data: [Item]
        public init(data: [Item]) { self.data = data }
    }

    /// `{"error":{"code","message","requestId"}}`, the envelope of Gatehouse's own APIs.
    public struct ErrorEnvelope: Codable, Sendable, Equatable {
        public struct Detail: Codable, Sendable, Equatable {
            public let code: String
            public let message: String
            public let requestId: String?
        }
        public let error: Detail
    }
}
