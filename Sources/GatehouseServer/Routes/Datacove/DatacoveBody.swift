import Foundation
import GatehouseAccountsEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// A Datacove JSON request body, read into the shared wire types by their own coding keys
/// (so a field renamed in `GatehouseWire` fails to compile here), each field's type checked
/// with this dialect's messages.
struct DatacoveBody {
    let fields: [String: JSONValue]

    init(_ request: Request) throws {
        guard case .object(let object)? = try? JSONValue(parsing: request.body.isEmpty ? Data("{}".utf8) : request.body)
        else { throw DatacoveError.validation("The body must be a JSON object.") }
        fields = object
    }

    func string(_ key: some CodingKey) throws -> String {
        guard let value = fields[key.stringValue]?.string, !value.isEmpty else { throw DatacoveError.validation("\(key.stringValue) is required") }
        return value
    }

    func optionalString(_ key: some CodingKey) throws -> String? {
        guard let value = fields[key.stringValue], value != .null else { return nil }
        guard let text = value.string else { throw DatacoveError.validation("\(key.stringValue) must be a string") }
        return text
    }

    func optionalBool(_ key: some CodingKey) throws -> Bool? {
        guard let value = fields[key.stringValue], value != .null else { return nil }
        guard let flag = value.bool else { throw DatacoveError.validation("\(key.stringValue) must be true or false") }
        return flag
    }

    /// Refuses a key the wire type does not have.
    func onlyKeys<Key: CodingKey & CaseIterable>(of _: Key.Type) throws {
        let allowed = Set(Key.allCases.map(\.stringValue))
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw DatacoveError.validation("\(unknown) cannot be changed here")
        }
    }

    /// `channel`, when sent, must be `sms`.
    private func smsChannel<Key: CodingKey>(_ key: Key) throws -> String {
        if let method = try optionalString(key), method != "sms" { throw DatacoveError.validation("channel must be sms") }
        return "sms"
    }

    func phoneCodeRequest() throws -> DatacoveWire.PhoneCodeRequest {
        typealias Keys = DatacoveWire.PhoneCodeRequest.CodingKeys
        let channel = try smsChannel(Keys.channel)
        return DatacoveWire.PhoneCodeRequest(phoneNumber: try string(Keys.phoneNumber), name: try optionalString(Keys.name), channel: channel)
    }

    func phoneCodeCheck() throws -> DatacoveWire.PhoneCodeCheck {
        typealias Keys = DatacoveWire.PhoneCodeCheck.CodingKeys
        let channel = try smsChannel(Keys.channel)
        return DatacoveWire.PhoneCodeCheck(phoneNumber: try string(Keys.phoneNumber), otp: try string(Keys.otp), channel: channel)
    }

    func emailCodeRequest() throws -> DatacoveWire.EmailCodeRequest {
        typealias Keys = DatacoveWire.EmailCodeRequest.CodingKeys
        return DatacoveWire.EmailCodeRequest(email: try string(Keys.email), name: try optionalString(Keys.name))
    }

    func emailCodeCheck() throws -> DatacoveWire.EmailCodeCheck {
        typealias Keys = DatacoveWire.EmailCodeCheck.CodingKeys
        return DatacoveWire.EmailCodeCheck(email: try string(Keys.email), otp: try string(Keys.otp))
    }

    func profileUpdate() throws -> DatacoveWire.ProfileUpdate {
        typealias Keys = DatacoveWire.ProfileUpdate.CodingKeys
        try onlyKeys(of: Keys.self)
        return DatacoveWire.ProfileUpdate(name: try optionalString(Keys.name), timezone: try optionalString(Keys.timezone))
    }

    func refreshRequest() throws -> DatacoveWire.RefreshRequest {
        DatacoveWire.RefreshRequest(refreshToken: try string(DatacoveWire.RefreshRequest.CodingKeys.refreshToken))
    }

    func verifyPurchase() throws -> DatacoveWire.VerifyPurchase {
        typealias Keys = DatacoveWire.VerifyPurchase.CodingKeys
        try onlyKeys(of: Keys.self)
        return DatacoveWire.VerifyPurchase(
            platform: try string(Keys.platform), platformProductId: try string(Keys.platformProductId),
            transactionId: try string(Keys.transactionId), signedTransaction: try optionalString(Keys.signedTransaction),
            transferToCurrentAccount: try optionalBool(Keys.transferToCurrentAccount))
    }
}

extension DatacoveWire.PhoneCodeRequest { var identified: (String, String?) { (phoneNumber, name) } }
extension DatacoveWire.EmailCodeRequest { var identified: (String, String?) { (email, name) } }
extension DatacoveWire.PhoneCodeCheck { var identified: (String, String) { (phoneNumber, otp) } }
extension DatacoveWire.EmailCodeCheck { var identified: (String, String) { (email, otp) } }

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
