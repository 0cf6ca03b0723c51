import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The access token the server holds for a proxied client-credentials definition: cached
/// sealed in `managed_api_tokens`, fetched again shortly before it expires, and fetched by one
/// caller at a time: one per node through `tokenFetches`, one per cluster through a lease on
/// the token's row taken by compare-and-set, after which the row is read again (a sibling may
/// have just fetched it).
extension ManagedAPIsEngine {
    /// A token is renewed this long before its stated expiry, for clock skew and transit.
    static let expiryBuffer: TimeInterval = 60
    /// How long one fetch may hold the lease before another node takes over.
    static let leaseSeconds: TimeInterval = 20

    enum LeaseOutcome: Sendable { case token(String), won, wait }

    func clientCredentialsToken(
        tenantID: String, definition: ManagedAPIDefinition, settings: ManagedAPIDefinition.OAuth2, secret: String, retiring: String?
    ) async throws -> String {
        let fingerprint = SHA256.hash(Data(([settings.tokenEndpoint.absoluteString, settings.clientID] + settings.scopes.sorted()).joined(separator: "\n").utf8)).hexString
        let key = "\(tenantID)\n\(definition.name)"
        return try await tokenFetches.run(key) { [self] in
            let deadline = Date().addingTimeInterval(Self.leaseSeconds + 5)
            while true {
                switch try await takeLeaseOrToken(tenantID: tenantID, name: definition.name, fingerprint: fingerprint, retiring: retiring) {
                case .token(let token): return token
                case .won:
                    return try await fetchUnderLease(tenantID: tenantID, definition: definition, settings: settings, secret: secret, fingerprint: fingerprint)
                case .wait:
                    guard Date() < deadline else { throw ManagedAPIError(.credentialUnavailable, "another node's token request for \(definition.name) did not finish") }
                    try await Task.sleep(nanoseconds: 50_000_000)
                }
            }
        }
    }

    /// In one transaction: the stored token if it is fresh, else the lease if it is free.
    private func takeLeaseOrToken(tenantID: String, name: String, fingerprint: String, retiring: String?) async throws -> LeaseOutcome {
        let now = self.now
        let context = Self.tokenContext(tenantID: tenantID, name: name)
        return try await database.write { [secrets, nodeID] db -> LeaseOutcome in
            let leaseUntil = now.addingTimeInterval(Self.leaseSeconds)
            guard let row = try db.queryOne(
                "SELECT fingerprint, sealed_token, expires_at FROM managed_api_tokens WHERE tenant_id = ? AND name = ?", tenantID, name)
            else {
                let inserted = try db.execute(
                    """
                    INSERT INTO managed_api_tokens (tenant_id, name, fingerprint, lease_owner, lease_until, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, name) DO NOTHING
                    """, tenantID, name, fingerprint, nodeID, leaseUntil, now)
                return inserted == 1 ? .won : .wait
            }
            let sealed: String? = try row.get("sealed_token")
            let expires: Date? = try row.get("expires_at")
            if try row.get("fingerprint") as String == fingerprint, let sealed, let token = secrets?.open(sealed, context: context), token != retiring,
                expires.map({ $0.addingTimeInterval(-Self.expiryBuffer) > now }) ?? true
            {
                return .token(token)
            }
            // Compare-and-set: on PostgreSQL a concurrent update waits on the row and then sees the lease taken.
            let taken = try db.execute(
                """
                UPDATE managed_api_tokens SET lease_owner = ?, lease_until = ?, updated_at = ?
                WHERE tenant_id = ? AND name = ? AND (lease_until IS NULL OR lease_until < ?)
                """, nodeID, leaseUntil, now, tenantID, name, now)
            return taken == 1 ? .won : .wait
        }
    }

    private func fetchUnderLease(
        tenantID: String, definition: ManagedAPIDefinition, settings: ManagedAPIDefinition.OAuth2, secret: String, fingerprint: String
    ) async throws -> String {
        let context = Self.tokenContext(tenantID: tenantID, name: definition.name)
        do {
            let (token, lifetime) = try await requestToken(definition: definition, settings: settings, secret: secret)
            guard let secrets else { throw ManagedAPIError(.secretKeyMissing, "this server has no managed-api-secret-key") }
            let now = self.now
            let sealed = secrets.seal(token, context: context)
            try await database.write { [nodeID] db in
                try db.execute(
                    """
                    UPDATE managed_api_tokens SET fingerprint = ?, sealed_token = ?, expires_at = ?, lease_owner = NULL, lease_until = NULL,
                      updated_at = ? WHERE tenant_id = ? AND name = ? AND lease_owner = ?
                    """, fingerprint, sealed, lifetime.map { now.addingTimeInterval($0) }, now, tenantID, definition.name, nodeID)
            }
            return token
        } catch {
            _ = try? await database.write { [nodeID] db in
                try db.execute(
                    "UPDATE managed_api_tokens SET lease_owner = NULL, lease_until = NULL WHERE tenant_id = ? AND name = ? AND lease_owner = ?",
                    tenantID, definition.name, nodeID)
            }
            throw error
        }
    }

    /// RFC 6749 §4.4: the token and its lifetime in seconds (nil when `expires_in` is absent).
    private func requestToken(
        definition: ManagedAPIDefinition, settings: ManagedAPIDefinition.OAuth2, secret: String
    ) async throws -> (String, TimeInterval?) {
        try await vet(settings.tokenEndpoint, definition: definition)
        var form = [("grant_type", "client_credentials")]
        if !settings.scopes.isEmpty { form.append(("scope", settings.scopes.joined(separator: " "))) }
        var request = URLRequest(url: settings.tokenEndpoint)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        switch settings.tokenEndpointAuth {
        case .clientSecretBasic:
            // RFC 6749 §2.3.1: both halves form-encoded before they are joined.
            let pair = ProxyPath.encode(settings.clientID) + ":" + ProxyPath.encode(secret)
            request.setValue("Basic " + Data(pair.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        case .clientSecretPost:
            form += [("client_id", settings.clientID), ("client_secret", secret)]
        }
        request.httpBody = Data(form.map { ProxyPath.encode($0.0) + "=" + ProxyPath.encode($0.1) }.joined(separator: "&").utf8)
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await environment.http.send(request)
        } catch {
            throw ManagedAPIError(.credentialUnavailable, "the token endpoint of \(definition.name) could not be reached")
        }
        let answer = try? JSONDecoder().decode(TokenAnswer.self, from: data)
        guard (200..<300).contains(response.statusCode), let token = answer?.access_token, !token.isEmpty else {
            let reason = answer?.error.map { "refused the client: \($0)" } ?? "answered HTTP \(response.statusCode)"
            throw ManagedAPIError(.credentialUnavailable, "the token endpoint of \(definition.name) \(reason)")
        }
        return (token, answer?.expires_in.map(TimeInterval.init))
    }

    struct TokenAnswer: Decodable {
        var access_token: String?
        var expires_in: Int?
        var error: String?
    }

    static func tokenContext(tenantID: String, name: String) -> String { "managed-api-token\n\(tenantID)\n\(name)" }
}
