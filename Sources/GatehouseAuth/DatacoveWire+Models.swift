import Foundation
import GatehouseWire
import GatehouseFormats

/// The shared wire types read into the SDK's public models.
extension DatacoveWire.TokenPair {
    /// The pair as the SDK keeps it, stamped with when this device received it.
    func received(at now: Date) -> TokenPair {
        TokenPair(accessToken: accessToken, refreshToken: refreshToken, expiresIn: expiresIn, receivedAt: now)
    }
}

extension DatacoveWire.Profile {
    var model: Profile {
        Profile(name: name, phone: phone, email: email, country: country, timezone: timezone, status: status, wallet: wallet)
    }
}

extension DatacoveWire.Session {
    /// Fails like a reply that does not decode when a timestamp is not an ISO 8601 date.
    func model() throws -> DeviceSession {
        guard let created = WireDate.parse(createdAt) else { throw Self.badDate(createdAt) }
        let lastUsed = try lastUsedAt.map { text in
            guard let date = WireDate.parse(text) else { throw Self.badDate(text) }
            return date
        }
        return DeviceSession(
            id: id, deviceName: deviceName, platform: platform, appVersion: appVersion, createdAt: created, lastUsedAt: lastUsed, current: current)
    }

    private static func badDate(_ text: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "not an ISO 8601 date: \(text)"))
    }
}
