import Foundation
import GatehouseAccountsEngine
import GatehouseHTTP
import GatehouseWire

/// A Datacove JSON request body: an object whose fields are read with their types checked.
struct DatacoveBody {
    let fields: [String: JSONValue]

    init(_ request: Request) throws {
        guard case .object(let object)? = try? JSONValue(parsing: request.body.isEmpty ? Data("{}".utf8) : request.body)
        else { throw DatacoveError.validation("The body must be a JSON object.") }
        fields = object
    }

    func string(_ key: String) throws -> String {
        guard let value = fields[key]?.string, !value.isEmpty else { throw DatacoveError.validation("\(key) is required") }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = fields[key], value != .null else { return nil }
        guard let text = value.string else { throw DatacoveError.validation("\(key) must be a string") }
        return text
    }

    func identifier(_ channel: SignInChannel) throws -> String {
        if channel == .phone, let method = try optionalString("channel"), method != "sms" {
            throw DatacoveError.validation("channel must be sms")
        }
        return try string(channel == .phone ? "phoneNumber" : "email")
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = fields[key], value != .null else { return nil }
        guard let flag = value.bool else { throw DatacoveError.validation("\(key) must be true or false") }
        return flag
    }

    func onlyKeys(_ allowed: Set<String>) throws {
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw DatacoveError.validation("\(unknown) cannot be changed here")
        }
    }
}

/// `GET users/v1/profile`: every key present, nulls written out.
struct DatacoveProfile: Encodable {
    let profile: Profile
    /// Credits by kind, from the commerce engine.
    let wallet: [String: Int]
    init(_ profile: Profile, wallet: [String: Int]) {
        self.profile = profile
        self.wallet = wallet
    }

    enum CodingKeys: String, CodingKey { case name, phone, email, country, timezone, status, wallet }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile.name, forKey: .name)
        try container.encode(profile.phone, forKey: .phone)
        try container.encode(profile.email, forKey: .email)
        try container.encode(profile.country, forKey: .country)
        try container.encode(profile.timezone, forKey: .timezone)
        try container.encode(profile.status, forKey: .status)
        try container.encode(wallet, forKey: .wallet)
    }
}

/// `GET auth/v1/sessions`.
struct DatacoveSessions: Encodable {
    struct Item: Encodable {
        let id: String
        let deviceName: String?
        let platform: String?
        let appVersion: String?
        let createdAt: String
        let lastUsedAt: String
        let current: Bool

        init(_ session: SessionInfo, current: Bool) {
            id = session.id
            deviceName = session.deviceName
            platform = session.platform
            appVersion = session.appVersion
            createdAt = WireDate.string(session.createdAt)
            lastUsedAt = WireDate.string(session.lastUsedAt)
            self.current = current
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(deviceName, forKey: .deviceName)
            try container.encode(platform, forKey: .platform)
            try container.encode(appVersion, forKey: .appVersion)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
            try container.encode(current, forKey: .current)
        }
        enum CodingKeys: String, CodingKey { case id, deviceName, platform, appVersion, createdAt, lastUsedAt, current }
    }
    let data: [Item]
}

/// Sign-in, activate and refresh: `{accessToken, refreshToken, expiresIn}`.
struct DatacoveTokenPair: Encodable {
    let accessToken: String
    let refreshToken: String
    let expiresIn: Int
    init(_ pair: TokenPair) {
        accessToken = pair.accessToken
        refreshToken = pair.refreshToken
        expiresIn = pair.expiresIn
    }
}
