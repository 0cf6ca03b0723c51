import Foundation
import GatehouseAccountsEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// A Datacove JSON request body, read into the shared wire types by the one body decoder
/// (so a field renamed in `GatehouseWire` changes what is read here too), with this dialect's
/// messages. An empty body is `{}`; the bodies that change stored state refuse unknown keys.
enum DatacoveBody {
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, unknownKeys: JSONBodyDecoder.UnknownKeys = .ignore) throws -> T {
        do {
            return try request.decodeBody(T.self, unknownKeys: unknownKeys, emptyIsObject: true)
        } catch {
            throw DatacoveError.validation(message(error))
        }
    }

    /// The dialect's words for a body that did not decode.
    static func message(_ error: BodyDecodingError) -> String {
        let field = error.field
        switch error.problem {
        case .empty, .unreadable: return "The body must be a JSON object."
        case .wrongType where error.path.isEmpty: return "The body must be a JSON object."
        case .missing, .null: return "\(field) is required"
        case .wrongType(.string): return "\(field) must be a string"
        case .wrongType(.boolean): return "\(field) must be true or false"
        case .wrongType(.integer), .notInteger: return "\(field) must be a whole number"
        case .wrongType(let kind): return "\(field) must be \(kind == .array ? "an array" : kind == .object ? "an object" : "a number")"
        case .unknownKey: return "\(field) cannot be changed here"
        case .invalid: return "\(field) is invalid"
        }
    }

    /// Required texts must not be empty either: the first that is, is named as required.
    static func required(_ fields: (value: String, key: any CodingKey)...) throws {
        if let empty = fields.first(where: { $0.value.isEmpty }) { throw DatacoveError.validation("\(empty.key.stringValue) is required") }
    }

    static func phoneCodeRequest(_ request: Request) throws -> DatacoveWire.PhoneCodeRequest {
        let body = try decode(DatacoveWire.PhoneCodeRequest.self, request)
        try smsChannel(body.channel)
        try required((body.phoneNumber, DatacoveWire.PhoneCodeRequest.CodingKeys.phoneNumber))
        return body
    }

    static func phoneCodeCheck(_ request: Request) throws -> DatacoveWire.PhoneCodeCheck {
        typealias Keys = DatacoveWire.PhoneCodeCheck.CodingKeys
        let body = try decode(DatacoveWire.PhoneCodeCheck.self, request)
        try smsChannel(body.channel)
        try required((body.phoneNumber, Keys.phoneNumber), (body.otp, Keys.otp))
        return body
    }

    static func emailCodeRequest(_ request: Request) throws -> DatacoveWire.EmailCodeRequest {
        let body = try decode(DatacoveWire.EmailCodeRequest.self, request)
        try required((body.email, DatacoveWire.EmailCodeRequest.CodingKeys.email))
        return body
    }

    static func emailCodeCheck(_ request: Request) throws -> DatacoveWire.EmailCodeCheck {
        typealias Keys = DatacoveWire.EmailCodeCheck.CodingKeys
        let body = try decode(DatacoveWire.EmailCodeCheck.self, request)
        try required((body.email, Keys.email), (body.otp, Keys.otp))
        return body
    }

    static func refreshRequest(_ request: Request) throws -> DatacoveWire.RefreshRequest {
        let body = try decode(DatacoveWire.RefreshRequest.self, request)
        try required((body.refreshToken, DatacoveWire.RefreshRequest.CodingKeys.refreshToken))
        return body
    }

    static func verifyPurchase(_ request: Request) throws -> DatacoveWire.VerifyPurchase {
        typealias Keys = DatacoveWire.VerifyPurchase.CodingKeys
        let body = try decode(DatacoveWire.VerifyPurchase.self, request, unknownKeys: .refuse)
        try required((body.platform, Keys.platform), (body.platformProductId, Keys.platformProductId))
        switch body.platform {
        case "google": try required((body.purchaseToken ?? "", Keys.purchaseToken))
        default: try required((body.transactionId ?? "", Keys.transactionId))
        }
        return body
    }

    /// `channel`, when sent, must be `sms` (the wire type reads a left-out one as `sms`).
    private static func smsChannel(_ channel: String) throws {
        if channel != "sms" { throw DatacoveError.validation("channel must be sms") }
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
