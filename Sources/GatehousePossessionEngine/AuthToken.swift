import Foundation
import GatehouseCrypto

/// The device's one-time token of a flow: an HS256 JWT whose claims say where the device must
/// call (`iss`), which flow (`sub`) and whether the tenant is a sandbox (`env`, which the SDK
/// reads to refuse test mode with a production token). `jti` is random, and only its hash is
/// kept on the flow, so the token is spent by `begin` exactly once.
struct AuthToken: Codable, Sendable, Equatable {
    static let audience = "gatehouse-possession"

    var iss: String
    var sub: String
    var aud: String
    var env: String
    var jti: String
    var iat: Int
    var exp: Int

    func signed(key: [UInt8]) throws -> String { try JWT.signHS256(encoding: self, key: key) }

    /// The claims of a token this server signed and that has not expired; nil for anything else.
    static func verified(_ token: String, key: [UInt8], now: Date) -> AuthToken? {
        guard token.utf8.count <= 4096, let jws = try? JWT.verifyHS256(token, key: key, now: now),
            let claims = try? jws.decodePayload(AuthToken.self), claims.aud == audience
        else { return nil }
        return claims
    }
}
