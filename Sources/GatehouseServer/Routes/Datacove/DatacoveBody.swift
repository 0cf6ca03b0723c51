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

/// The Datacove session answers in the shared wire types.
enum SessionJSON {
    static func profile(_ profile: Profile, wallet: [String: Int]) -> DatacoveWire.Profile {
        DatacoveWire.Profile(
            name: profile.name, phone: profile.phone, email: profile.email, country: profile.country, timezone: profile.timezone,
            status: profile.status, wallet: wallet)
    }

    static func sessions(_ list: [SessionInfo], current: String) -> DatacoveWire.Sessions {
        DatacoveWire.Sessions(data: list.map { session in
            DatacoveWire.Session(
                id: session.id, deviceName: session.deviceName, platform: session.platform, appVersion: session.appVersion,
                createdAt: WireDate.string(session.createdAt), lastUsedAt: WireDate.string(session.lastUsedAt), current: session.id == current)
        })
    }

    static func tokens(_ pair: TokenPair) -> DatacoveWire.TokenPair {
        DatacoveWire.TokenPair(accessToken: pair.accessToken, refreshToken: pair.refreshToken, expiresIn: pair.expiresIn)
    }
}
