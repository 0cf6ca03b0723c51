import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// A tenant's server-to-server clients (`POST /token`, client credentials): issued by the
/// operator, the secret shown once and kept only as a hash; each token they get lives an hour
/// and is kept only as a hash too.
extension PossessionEngine {
    /// A client as the operator lists it.
    public struct Client: Sendable, Equatable {
        public let id: String
        public let label: String
        public let createdAt: Date
    }

    /// A new client; `secret` is shown this once.
    public struct IssuedClient: Sendable {
        public let client: Client
        public let secret: String
    }

    /// Who an access token belongs to.
    public struct Caller: Sendable, Equatable {
        public let tenantID: String
        public let clientID: String
    }

    static let clientPrefix = "ghpc"
    static let tokenPrefix = "ghpt"

    public func issueClient(tenantID: String, label: String) async throws -> IssuedClient {
        let trimmed = label.trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw PossessionError.invalid("label", .length(1...100)) }
        let issued = SecretToken.issue(prefix: Self.clientPrefix, id: environment.ids.next(), random: environment.random)
        let id = String(issued.token[..<issued.token.firstIndex(of: ".")!])
        let secret = String(issued.token[issued.token.index(after: issued.token.firstIndex(of: ".")!)...])
        let now = self.now
        try await database.write { db in
            try db.execute(
                "INSERT INTO possession_clients (id, tenant_id, label, secret_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                id, tenantID, trimmed, issued.hash, now)
        }
        return IssuedClient(client: Client(id: id, label: trimmed, createdAt: now), secret: secret)
    }

    public func clients(tenantID: String) async throws -> [Client] {
        try await database.read { db in
            try db.query("SELECT id, label, created_at FROM possession_clients WHERE tenant_id = ? AND revoked_at IS NULL ORDER BY created_at, id", tenantID)
                .map { Client(id: try $0.get("id"), label: try $0.get("label"), createdAt: try $0.get("created_at")) }
        }
    }

    /// Revokes a client and every token it holds.
    public func revokeClient(tenantID: String, clientID: String) async throws {
        let now = self.now
        try await database.write { db in
            let changed = try db.execute(
                "UPDATE possession_clients SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL", now, clientID, tenantID)
            guard changed == 1 else { throw PossessionError(.notFound, .noSuchClient) }
            try db.execute("DELETE FROM possession_access_tokens WHERE client_id = ?", clientID)
        }
    }

    /// `POST /token`: a bearer token for a client's id and secret. A wrong pair, an unknown or
    /// revoked client, a disabled tenant and a malformed id are one answer.
    public func accessToken(clientID: String, clientSecret: String) async throws -> (token: String, expiresIn: Int) {
        guard let parsed = SecretToken.parse(clientID + "." + clientSecret, prefix: Self.clientPrefix) else {
            throw PossessionError(.unauthorized, .badClientCredentials)
        }
        // The row is found by the id as parsed, never by the raw text (which could hold anything after the hex).
        let id = Self.clientPrefix + "_" + parsed.id.replacingOccurrences(of: "-", with: "")
        let issued = SecretToken.issue(prefix: Self.tokenPrefix, id: environment.ids.next(), random: environment.random)
        let tokenID = issued.token.split(separator: ".", maxSplits: 1).first.map(String.init)!
        let now = self.now
        let lifetime = Self.accessTokenLifetime
        try await database.write { db in
            // Locked, so a revocation that commits meanwhile waits, and then finds this token to delete.
            guard let row = try db.queryOne(
                """
                SELECT c.tenant_id, c.secret_hash FROM possession_clients c JOIN tenants t ON t.id = c.tenant_id
                WHERE c.id = ? AND c.revoked_at IS NULL AND t.disabled_at IS NULL
                """ + db.dialect.forUpdate, id),
                parsed.matches(hash: try row.get("secret_hash"))
            else { throw PossessionError(.unauthorized, .badClientCredentials) }
            // Each client's expired tokens go as it takes a new one, so the table stays small.
            try db.execute("DELETE FROM possession_access_tokens WHERE client_id = ? AND expires_at <= ?", id, now)
            try db.execute(
                "INSERT INTO possession_access_tokens (id, client_id, tenant_id, token_hash, expires_at) VALUES (?, ?, ?, ?, ?)",
                tokenID, id, try row.get("tenant_id") as String, issued.hash, now.addingTimeInterval(TimeInterval(lifetime)))
        }
        return (issued.token, lifetime)
    }

    /// The caller a bearer token belongs to; unknown, expired and revoked are one answer.
    public func caller(bearer: String) async throws -> Caller {
        guard let parsed = SecretToken.parse(bearer, prefix: Self.tokenPrefix) else { throw PossessionError(.unauthorized, .badAccessToken) }
        let id = Self.tokenPrefix + "_" + parsed.id.replacingOccurrences(of: "-", with: "")
        let now = self.now
        return try await database.read { db in
            guard let row = try db.queryOne(
                """
                SELECT a.client_id, a.tenant_id, a.token_hash, a.expires_at FROM possession_access_tokens a
                JOIN possession_clients c ON c.id = a.client_id AND c.revoked_at IS NULL
                JOIN tenants t ON t.id = a.tenant_id AND t.disabled_at IS NULL
                WHERE a.id = ?
                """, id),
                try row.get("expires_at") as Date > now, parsed.matches(hash: try row.get("token_hash"))
            else { throw PossessionError(.unauthorized, .badAccessToken) }
            return Caller(tenantID: try row.get("tenant_id"), clientID: try row.get("client_id"))
        }
    }
}
