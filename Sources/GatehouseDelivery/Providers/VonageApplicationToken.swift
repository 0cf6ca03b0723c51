import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// The JWT a Vonage application authenticates with (`Authorization: Bearer …`): RS256 over
/// `{"application_id", "iat", "jti", "exp"}`, signed with the application's private key.
/// One is minted per request, short-lived, with a fresh `jti` so none can be replayed.
struct VonageApplicationToken: Sendable {
    /// Vonage accepts up to a day; a token per request needs minutes at most.
    static let lifetime: TimeInterval = 300

    let applicationId: String
    let key: RS256PrivateKey
    let clock: any Clock
    let random: any RandomSource

    private struct Claims: Encodable {
        let applicationId: String
        let iat: Int64
        let jti: String
        let exp: Int64
        enum CodingKeys: String, CodingKey { case applicationId = "application_id", iat, jti, exp }
    }

    func mint() throws -> String {
        let now = Int64(clock.now.timeIntervalSince1970)
        let claims = Claims(applicationId: applicationId, iat: now, jti: Self.uuid(random.bytes(16)), exp: now + Int64(Self.lifetime))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try JWS.signRS256(headerJSON: Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8), payload: try encoder.encode(claims), privateKey: key)
        } catch {
            throw DeliveryError("Vonage token signing failed: \(error)")
        }
    }

    /// A random (version 4) UUID string from 16 bytes, as Vonage's own libraries make `jti`.
    static func uuid(_ bytes: [UInt8]) -> String {
        var bytes = bytes
        bytes[6] = 0x40 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let hex = bytes.hexString
        let cuts = [8, 12, 16, 20]
        var text = ""
        for (index, character) in hex.enumerated() {
            if cuts.contains(index) { text.append("-") }
            text.append(character)
        }
        return text
    }
}
