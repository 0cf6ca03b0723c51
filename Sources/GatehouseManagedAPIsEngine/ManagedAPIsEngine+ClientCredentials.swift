import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The access token the server holds for a proxied client-credentials definition: cached
/// sealed in `managed_api_tokens`, fetched again shortly before it expires, and fetched by one
/// caller at a time: one per node through `tokenFetches`, one per cluster through a lease on
/// the token's row taken by compare-and-set against the row as it was just read, so a sibling
/// that stored a new token in between makes the lease fail and the new token is read instead.
extension ManagedAPIsEngine {
    /// How long one fetch may hold the lease before another node takes over; the token
    /// request's own timeout is shorter.
    static let leaseSeconds: TimeInterval = 20
    /// Polls of a lease another node holds before giving up (50 ms apart: a little over a lease).
    static let leasePolls = 500

    enum LeaseOutcome: Sendable { case token(String), won, wait }

    func clientCredentialsToken(
        tenantID: String, definition: ManagedAPIDefinition, settings: ManagedAPIDefinition.OAuth2, secret: String, retiring: String?
    ) async throws -> String {
        let fingerprint = SHA256.hash(Data(([settings.tokenEndpoint.absoluteString, settings.clientID] + settings.scopes.sorted()).joined(separator: "\n").utf8)).hexString
        // A read first: the common case writes nothing.
        if let token = try await storedToken(tenantID: tenantID, name: definition.name, fingerprint: fingerprint, retiring: retiring) { return token }
        // Callers retiring the same token share a flight; one not retiring any does not get it back.
        let key = "\(tenantID)\n\(definition.name)\n\(retiring ?? "")"
        return try await tokenFetches.run(key) { [self] in
            for _ in 0..<Self.leasePolls {
                switch try await takeLeaseOrToken(tenantID: tenantID, name: definition.name, fingerprint: fingerprint, retiring: retiring) {
                case .token(let token): return token
                case .won:
                    return try await fetchUnderLease(tenantID: tenantID, definition: definition, settings: settings, secret: secret, fingerprint: fingerprint)
                case .wait:
                    // The holder works in real time, whatever the engine's clock says; the
                    // lease it holds lapses on the engine's clock.
                    try await SystemClock().sleep(for: 0.05)
                }
            }
            throw ManagedAPIError.credentialUnavailable(.tokenRequestUnfinished(definition: definition.name))
        }
    }

    private func storedToken(tenantID: String, name: String, fingerprint: String, retiring: String?) async throws -> String? {
        let now = self.now
        let row = try await database.read { db in
            try db.queryOne("SELECT fingerprint, sealed_token, expires_at FROM managed_api_tokens WHERE tenant_id = ? AND name = ?", tenantID, name)
        }
        return try row.flatMap { try usable($0, tenantID: tenantID, name: name, fingerprint: fingerprint, retiring: retiring, now: now) }
    }

    /// The row's token if it is for this client, fresh, and not the one being retired.
    private func usable(_ row: Row, tenantID: String, name: String, fingerprint: String, retiring: String?, now: Date) throws -> String? {
        guard try row.get("fingerprint") as String == fingerprint, let sealed = try row.get("sealed_token", as: String?.self),
            let token = secrets?.open(sealed, context: Self.tokenContext(tenantID: tenantID, name: name)), token != retiring
        else { return nil }
        // `expires_at` already has the renewal margin taken off; none means "until refused".
        let renewAt = try row.get("expires_at", as: Date?.self)
        return renewAt.map { $0 > now } ?? true ? token : nil
    }

    /// In one transaction: the stored token if it is fresh, else the lease if it is free.
    private func takeLeaseOrToken(tenantID: String, name: String, fingerprint: String, retiring: String?) async throws -> LeaseOutcome {
        let now = self.now
        return try await database.write { [self] db -> LeaseOutcome in
            let leaseUntil = now.addingTimeInterval(Self.leaseSeconds)
            guard let row = try db.queryOne(
                "SELECT fingerprint, sealed_token, expires_at, version FROM managed_api_tokens WHERE tenant_id = ? AND name = ?", tenantID, name)
            else {
                let inserted = try db.execute(
                    """
                    INSERT INTO managed_api_tokens (tenant_id, name, fingerprint, lease_owner, lease_until, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, name) DO NOTHING
                    """, tenantID, name, fingerprint, nodeID, leaseUntil, now)
                return inserted == 1 ? .won : .wait
            }
            if let token = try usable(row, tenantID: tenantID, name: name, fingerprint: fingerprint, retiring: retiring, now: now) { return .token(token) }
            // Compare-and-set against the row as read: on PostgreSQL a concurrent update waits on
            // the row, and a token stored meanwhile moved `version` on, so this one takes nothing.
            let taken = try db.execute(
                """
                UPDATE managed_api_tokens SET lease_owner = ?, lease_until = ?, updated_at = ?, version = version + 1
                WHERE tenant_id = ? AND name = ? AND version = ? AND (lease_until IS NULL OR lease_until < ?)
                """, nodeID, leaseUntil, now, tenantID, name, try row.get("version", as: Int64.self), now)
            return taken == 1 ? .won : .wait
        }
    }

    private func fetchUnderLease(
        tenantID: String, definition: ManagedAPIDefinition, settings: ManagedAPIDefinition.OAuth2, secret: String, fingerprint: String
    ) async throws -> String {
        let context = Self.tokenContext(tenantID: tenantID, name: definition.name)
        do {
            let (token, lifetime) = try await requestToken(definition: definition, settings: settings, secret: secret)
            guard let secrets else { throw ManagedAPIError(.secretKeyMissing, .secretKeyMissing(saving: false)) }
            let now = self.now
            // Renewed a minute early, or at half its life when it lives less than two minutes.
            let renewAt = lifetime.map { now.addingTimeInterval($0 - min(60, $0 / 2)) }
            try await database.write { [nodeID] db in
                try db.execute(
                    """
                    UPDATE managed_api_tokens SET fingerprint = ?, sealed_token = ?, expires_at = ?, lease_owner = NULL, lease_until = NULL,
                      version = version + 1, updated_at = ? WHERE tenant_id = ? AND name = ? AND lease_owner = ?
                    """, fingerprint, secrets.seal(token, context: context), renewAt, now, tenantID, definition.name, nodeID)
            }
            return token
        } catch {
            _ = try? await database.write { [nodeID] db in
                try db.execute(
                    "UPDATE managed_api_tokens SET lease_owner = NULL, lease_until = NULL, version = version + 1 WHERE tenant_id = ? AND name = ? AND lease_owner = ?",
                    tenantID, definition.name, nodeID)
            }
            throw error
        }
    }

    static func tokenContext(tenantID: String, name: String) -> String { "managed-api-token\n\(tenantID)\n\(name)" }
}
