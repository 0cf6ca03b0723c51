import Foundation
import GatehouseWire

/// The signed-in user's profile from `GET users/v1/profile`.
public struct Profile: Codable, Sendable, Equatable {
    /// The display name, when set.
    public var name: String?
    /// The phone number in digits without `+`, when the account has one.
    public var phone: String?
    /// The email address, when the account has one.
    public var email: String?
    /// ISO 3166 country code, when known.
    public var country: String?
    /// IANA time zone, when set.
    public var timezone: String?
    /// Account status, such as `CREATED` or `ACTIVE`.
    public var status: String
    /// Credit balances by wallet kind (`WALLET`, `TRIAL`, `SUBSCRIPTION`); open to kinds added later.
    public var wallet: [String: Int]

    /// A profile value.
    public init(
        name: String? = nil, phone: String? = nil, email: String? = nil, country: String? = nil, timezone: String? = nil,
        status: String, wallet: [String: Int] = [:]
    ) {
        self.name = name
        self.phone = phone
        self.email = email
        self.country = country
        self.timezone = timezone
        self.status = status
        self.wallet = wallet
    }

    /// Reads the server's profile through the shared wire type.
    public init(from decoder: any Decoder) throws {
        self = try DatacoveWire.Profile(from: decoder).model
    }
}

/// One signed-in device from `GET auth/v1/sessions`.
public struct DeviceSession: Codable, Sendable, Equatable, Identifiable {
    /// The session id, for `AuthClient.signOut(session:)`.
    public var id: String
    /// The device name sent at sign-in, when one was.
    public var deviceName: String?
    /// The platform the session signed in from, when known.
    public var platform: String?
    /// The app version last seen on this session, when known.
    public var appVersion: String?
    /// When the session signed in.
    public var createdAt: Date
    /// When the session was last used, when known.
    public var lastUsedAt: Date?
    /// Whether this is the session making the call.
    public var current: Bool
}

/// The `{"data": [...]}` wrapper around the sessions list, read through the shared wire type.
struct SessionList: Decodable {
    let data: [DeviceSession]

    init(from decoder: any Decoder) throws {
        data = try DatacoveWire.Sessions(from: decoder).data.map { try $0.model() }
    }
}
