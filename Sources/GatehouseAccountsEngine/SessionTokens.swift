import Foundation
import GatehouseCrypto
import GatehouseFormats

/// The token formats. A refresh token is `<session id>.<generation>.<mac>`, the mac an
/// HMAC of both under the session's own secret, so the server stores no token and can
/// hand the same successor to two racing refreshes. An access token is an HS256 JWT whose
/// `iat` is the generation's rotation time, so the same generation always yields the same
/// pair.
enum SessionTokens {
    struct Refresh: Equatable {
        let sessionID: String
        let generation: Int
        let mac: String
    }

    static func refresh(sessionID: String, generation: Int, secret: [UInt8]) -> String {
        "\(sessionID).\(generation).\(mac(sessionID: sessionID, generation: generation, secret: secret))"
    }

    static func mac(sessionID: String, generation: Int, secret: [UInt8]) -> String {
        Base64URL.encode(HMAC.sha256(key: secret, message: Array("refresh:\(sessionID):\(generation)".utf8)))
    }

    static func parseRefresh(_ token: String) -> Refresh? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.count < 200, let generation = Int(parts[1]), generation >= 0,
            UUID(uuidString: String(parts[0])) != nil
        else { return nil }
        return Refresh(sessionID: String(parts[0]), generation: generation, mac: String(parts[2]))
    }

    struct Claims: Codable, Equatable {
        let sub: String
        let sid: String
        let tid: String
        let status: String
        let gen: Int
        let iat: Int64
        let exp: Int64
    }

    static func access(_ claims: Claims, key: SigningKeys.Key) throws -> String {
        try JWT.signHS256(payloadJSON: SortedJSONEncoder.encode(claims), key: key.secret, keyID: key.id)
    }
}
