import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// Why a Pub/Sub push's `Authorization: Bearer` token was refused: each is a 401 that records nothing.
public enum PushTokenRefusal: Error, Equatable, Sendable {
    /// Not three base64url parts with a JSON header, or not RS256 (`none`, `HS256`, …).
    case malformed
    /// No certificate of Google's has the token's `kid` (after fetching them again).
    case unknownKey
    case badSignature
    /// `iss` is not Google's accounts service.
    case wrongIssuer
    /// `aud` is not the audience the tenant set for its push subscription.
    case wrongAudience
    /// `email` is not the service account the tenant set, or Google has not verified it.
    case wrongAccount
    /// Past `exp`, issued in the future, or without the two.
    case expired
    /// Google's certificates could not be fetched (a 5xx to the push, so Pub/Sub retries).
    case certificatesUnavailable
}

/// Checks the OpenID Connect tokens Google signs for the Pub/Sub pushes of real-time developer
/// notifications: RS256 by `kid` against Google's published certificates (kept as long as the
/// answer's `Cache-Control: max-age` says and at least a minute, fetched again for a `kid` not
/// among them at most once a minute, one fetch at a time), `iss` Google's accounts service, `aud` and `email` the ones
/// the tenant configured with `email_verified` true, and `exp`/`iat` around now.
final class GooglePushTokens: Sendable {
    static let defaultCertificatesURL = URL(string: "https://www.googleapis.com/oauth2/v1/certs")!
    static let issuers: Set<String> = ["accounts.google.com", "https://accounts.google.com"]
    /// Clock difference tolerated on `exp` and `iat`.
    static let leeway: TimeInterval = 60
    /// How soon an unknown `kid` may make the certificates be fetched again.
    static let refetchInterval: TimeInterval = 60

    struct Certificates: Sendable {
        let keys: [String: RS256PublicKey]
        let fetchedAt: Date
        let until: Date
    }

    let certificatesURL: URL
    let http: any OutboundHTTP
    let clock: any GatehouseCore.Clock
    private let held = BoundedMemo<String, Certificates>(capacity: 1)
    private let fetches = SingleFlight<Certificates>()

    init(certificatesURL: URL, http: any OutboundHTTP, clock: any GatehouseCore.Clock) {
        self.certificatesURL = certificatesURL
        self.http = http
        self.clock = clock
    }

    /// The token's claims once every check passes; throws `PushTokenRefusal` otherwise. A nil
    /// `audience` or `serviceAccountEmail` is not checked (a push for no tenant: only that
    /// Google signed it).
    func verify(_ token: String, audience: String?, serviceAccountEmail: String?) async throws -> [String: JSONValue] {
        guard let jws = try? JWS.decode(compact: token), jws.header.alg == "RS256", let kid = jws.header.kid else {
            throw PushTokenRefusal.malformed
        }
        guard let key = try await key(kid) else { throw PushTokenRefusal.unknownKey }
        guard (try? JWS.verifyRS256(compact: token, publicKey: key)) != nil else { throw PushTokenRefusal.badSignature }
        guard let claims = (try? JSONReader.parse(Data(jws.payload)))?.object else { throw PushTokenRefusal.malformed }
        guard let issuer = claims["iss"]?.string, Self.issuers.contains(issuer) else { throw PushTokenRefusal.wrongIssuer }
        if let audience, claims["aud"]?.string != audience { throw PushTokenRefusal.wrongAudience }
        if let serviceAccountEmail, claims["email"]?.string != serviceAccountEmail || claims["email_verified"]?.bool != true {
            throw PushTokenRefusal.wrongAccount
        }
        let now = clock.now.timeIntervalSince1970
        guard let expires = claims["exp"]?.number, let issued = claims["iat"]?.number,
              now < expires + Self.leeway, issued <= now + Self.leeway
        else { throw PushTokenRefusal.expired }
        return claims
    }

    /// The key named `kid`: from the certificates held, else from a fresh fetch when those
    /// have expired or (for a `kid` they lack) were fetched over a minute ago.
    private func key(_ kid: String) async throws -> RS256PublicKey? {
        let now = clock.now
        if let current = held.cached(""), now < current.until {
            if let key = current.keys[kid] { return key }
            guard now.timeIntervalSince(current.fetchedAt) >= Self.refetchInterval else { return nil }
        }
        let fetched = try await fetches.run("") { [self] in
            // A caller that waited on the previous fetch finds what it brought.
            if let current = held.cached(""), clock.now.timeIntervalSince(current.fetchedAt) < Self.refetchInterval { return current }
            let fresh = try await fetchCertificates()
            held.remember(fresh, for: "")
            return fresh
        }
        return fetched.keys[kid]
    }

    /// `{kid: PEM certificate}`, as Google's v1 certificates endpoint answers.
    private func fetchCertificates() async throws -> Certificates {
        var request = OutboundRequest(url: certificatesURL, timeoutInterval: 15)
        request.target = .googlePlay
        request.maxResponseBytes = 256 << 10
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        guard let (data, response) = try? await http.send(request), response.statusCode == 200,
              let object = (try? JSONReader.parse(data))?.object
        else { throw PushTokenRefusal.certificatesUnavailable }
        var keys: [String: RS256PublicKey] = [:]
        for (kid, value) in object {
            if let pem = value.string, let key = try? RS256PublicKey(certificatePEM: pem) { keys[kid] = key }
        }
        let now = clock.now
        // Kept at least a minute whatever the answer says, so pushes cannot make a fetch each.
        let lifetime = max(Self.refetchInterval, Self.maxAge(response.value(forHTTPHeaderField: "Cache-Control")))
        return Certificates(keys: keys, fetchedAt: now, until: now.addingTimeInterval(lifetime))
    }

    /// `max-age` of a `Cache-Control` value, in seconds (at most a day); 0 without one.
    static func maxAge(_ value: String?) -> TimeInterval {
        for directive in (value ?? "").split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return TimeInterval(min(seconds, 86_400))
            }
        }
        return 0
    }
}
