import Foundation
import GatehouseCrypto

extension AppStoreServerAPI {
    /// The audience Apple requires in App Store Server API tokens.
    public static let tokenAudience = "appstoreconnect-v1"

    /// A fresh ES256 bearer token signed with the tenant's `.p8` key:
    /// header `{"alg":"ES256","kid":keyId,"typ":"JWT"}`, claims `iss`, `iat` (now, seconds),
    /// `exp` (`iat` + `tokenLifetime`), `aud` (`appstoreconnect-v1`) and `bid`.
    public func authorizationToken() throws -> String {
        let key: P256PrivateKey
        do {
            key = try P256PrivateKey(pem: credentials.privateKeyPEM)
        } catch {
            throw AppStoreAPIError.invalidCredentials("the .p8 key is not an EC P-256 PEM private key")
        }
        let issuedAt = Int64(clock.now.timeIntervalSince1970.rounded(.down))
        let header = TokenHeader(alg: "ES256", kid: credentials.keyId, typ: "JWT")
        let claims = TokenClaims(
            iss: credentials.issuerId, iat: issuedAt, exp: issuedAt + Self.tokenLifetime, aud: Self.tokenAudience,
            bid: credentials.bundleId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JWS.signES256(headerJSON: encoder.encode(header), payload: encoder.encode(claims), privateKey: key)
    }
}

private struct TokenHeader: Encodable {
    let alg: String
    let kid: String
    let typ: String
}

private struct TokenClaims: Encodable {
    let iss: String
    let iat: Int64
    let exp: Int64
    let aud: String
    let bid: String
}
