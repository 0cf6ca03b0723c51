import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// Access tokens for the Play Developer API, got with a service account's key by the JWT
/// bearer grant (RFC 7523) as Google's own client library does it: an RS256 assertion
/// (`kid` the key's id; `iss` the account; `scope` androidpublisher; `aud` Google's token URL,
/// whatever URL the grant is posted to; an hour's lifetime), posted form-encoded.
///
/// Each tenant's token is kept until a minute before it expires, and a node fetches one at a
/// time per tenant and key: callers that arrive meanwhile share the fetch. A new key (its
/// fingerprint) gets a token of its own at once.
final class GoogleAccessTokens: Sendable {
    static let scope = "https://www.googleapis.com/auth/androidpublisher"
    static let audience = "https://oauth2.googleapis.com/token"
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    static let defaultTokenURL = URL(string: audience)!
    /// A token is not used in its last minute, so a call never carries one that expires on the way.
    static let margin: TimeInterval = 60

    let tokenURL: URL
    let http: any OutboundHTTP
    let clock: any GatehouseCore.Clock
    /// A token and the moment it stops being used.
    struct Held: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
        let token: String
        let until: Date
        var description: String { "Held(<redacted> until \(until))" }
        var debugDescription: String { description }
    }
    private let cache = BoundedMemo<String, Held>(capacity: 10_000)
    private let fetches = SingleFlight<Held>()

    init(tokenURL: URL, http: any OutboundHTTP, clock: any GatehouseCore.Clock) {
        self.tokenURL = tokenURL
        self.http = http
        self.clock = clock
    }

    /// A token for `key`, from the cache or a grant. `replacing` is a token the API refused
    /// (revoked before it expired): a new one is granted unless another caller already has.
    func token(tenantID: String, key: ServiceAccountKey, replacing refused: String? = nil) async throws -> String {
        let slot = tenantID + "\n" + SHA256.hash(Data((key.clientEmail + "\n" + key.privateKey).utf8)).hexString
        func usable(_ held: Held?) -> Held? {
            guard let held, clock.now < held.until, held.token != refused else { return nil }
            return held
        }
        if let held = usable(cache.cached(slot)) { return held.token }
        let fetched = try await fetches.run(slot) { [self] in
            // A caller that waited on the previous fetch may find its token now.
            if let held = usable(cache.cached(slot)) { return held }
            let fresh = try await grant(key)
            cache.remember(fresh, for: slot)
            return fresh
        }
        return fetched.token
    }

    private func grant(_ key: ServiceAccountKey) async throws -> Held {
        let issuedAt = Int64(clock.now.timeIntervalSince1970.rounded(.down))
        let assertion = try Self.assertion(key, issuedAt: issuedAt)
        var request = OutboundRequest(url: tokenURL, timeoutInterval: 15)
        request.target = .googlePlay
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(PercentEncoding.form([("grant_type", Self.grantType), ("assertion", assertion)]).utf8)
        request.maxResponseBytes = 64 << 10
        let (data, response) = try await GoogleAPIError.send(request, on: http)
        switch response.statusCode {
        case 200:
            guard let object = (try? JSONReader.parse(data))?.object, let token = object["access_token"]?.string, !token.isEmpty,
                  let lifetime = object["expires_in"]?.int, lifetime > 0
            else { throw GoogleAPIError.invalidResponse("no access_token and expires_in") }
            return Held(token: token, until: clock.now.addingTimeInterval(TimeInterval(lifetime) - Self.margin))
        case 429, 500...599: throw GoogleAPIError.unavailable(status: response.statusCode)
        default: throw GoogleAPIError.grantRefused(status: response.statusCode, error: (try? JSONReader.parse(data))?.object?["error"]?.string)
        }
    }

    /// The signed assertion: what google-auth's `service_account.Credentials` signs.
    static func assertion(_ key: ServiceAccountKey, issuedAt: Int64) throws -> String {
        struct Header: Encodable { let alg = "RS256", typ = "JWT", kid: String? }
        struct Claims: Encodable { let iss: String, scope: String, aud: String, iat: Int64, exp: Int64 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claims = Claims(iss: key.clientEmail, scope: scope, aud: audience, iat: issuedAt, exp: issuedAt + 3600)
        return try JWS.signRS256(
            headerJSON: encoder.encode(Header(kid: key.privateKeyID)), payload: encoder.encode(claims), privateKey: RS256PrivateKey(pem: key.privateKey))
    }
}
