import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// A SubscriptionFlow account token: the UUID the app passes to StoreKit as `appAccountToken`,
/// and the customer of the tenant it stands for.
public struct AccountToken: Sendable, Equatable {
    public let token: String
    public let customerId: String
    public let createdAt: Date
    public let revokedAt: Date?
}

/// An issued pair; the client secret is shown here once and stored only as a hash.
public struct IssuedAccountToken: Sendable, Equatable {
    public let accountToken: AccountToken
    public let clientSecret: String
    /// The customer's live token was kept (with a new secret) rather than replaced.
    public let reused: Bool
}

/// The app's pair did not authenticate.
public struct AccountTokenRefused: Error, Equatable, Sendable {}

extension CommerceEngine {
    /// Issues the customer's pair. Without `rotate` the live token is reused, so purchases already
    /// tagged with it keep linking, and a new client secret replaces the old one; with `rotate` the
    /// live token is revoked and a new one issued.
    public func issueAccountToken(tenantID: String, customerID: String, rotate: Bool) async throws -> IssuedAccountToken {
        guard (1...200).contains(customerID.count), !customerID.contains(where: \.isNewline) else {
            throw CommerceError.invalid("customer_id", .length(1...200))
        }
        let secret = Self.clientSecret(environment.random)
        let hash = SHA256.hash(Array(secret.utf8))
        let fresh = environment.ids.next().uuidString.lowercased()
        let now = environment.clock.now
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            let live = try db.queryOne(
                "SELECT token FROM commerce_account_tokens WHERE tenant_id = ? AND customer_id = ? AND revoked_at IS NULL" + db.dialect.forUpdate,
                tenantID, customerID)
            if let live, !rotate {
                let token: String = try live.get("token")
                try db.execute("UPDATE commerce_account_tokens SET secret_hash = ? WHERE token = ?", hash, token)
                return IssuedAccountToken(accountToken: try Self.accountToken(db, token)!, clientSecret: secret, reused: true)
            }
            try db.execute(
                "UPDATE commerce_account_tokens SET revoked_at = ? WHERE tenant_id = ? AND customer_id = ? AND revoked_at IS NULL",
                now, tenantID, customerID)
            try db.execute(
                "INSERT INTO commerce_account_tokens (token, tenant_id, customer_id, secret_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                fresh, tenantID, customerID, hash, now)
            return IssuedAccountToken(accountToken: try Self.accountToken(db, fresh)!, clientSecret: secret, reused: false)
        }
    }

    /// Revokes a token: it no longer authenticates, but purchases tagged with it still link to its customer.
    public func revokeAccountToken(tenantID: String, token: String) async throws -> AccountToken {
        let now = environment.clock.now
        return try await database.write { db in
            let updated = try db.execute(
                "UPDATE commerce_account_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE token = ? AND tenant_id = ?",
                now, token.lowercased(), tenantID)
            guard updated > 0, let found = try Self.accountToken(db, token.lowercased()) else { throw CommerceError.notFound(.accountToken) }
            return found
        }
    }

    /// The tenant and customer of a live pair; the secret is compared in constant time.
    public func authenticateAccountToken(_ token: String, secret: String) async throws -> (tenantID: String, customerID: String) {
        let row = try await database.read { db in
            try db.queryOne("SELECT tenant_id, customer_id, secret_hash, revoked_at FROM commerce_account_tokens WHERE token = ?", token.lowercased())
        }
        let presented = SHA256.hash(Array(secret.utf8))
        guard let row, constantTimeEquals(try row.get("secret_hash", as: [UInt8].self), presented),
              try row.get("revoked_at", as: Date?.self) == nil
        else { throw AccountTokenRefused() }
        return (try row.get("tenant_id"), try row.get("customer_id"))
    }

    /// The customer a token was issued to, revoked or not.
    func customer(ofToken token: String, tenantID: String) async throws -> String? {
        try await database.read { db in
            try db.queryOne("SELECT customer_id FROM commerce_account_tokens WHERE token = ? AND tenant_id = ?", token.lowercased(), tenantID)?
                .get("customer_id")
        }
    }

    static func accountToken(_ db: any DatabaseConnection, _ token: String) throws -> AccountToken? {
        guard let row = try db.queryOne("SELECT * FROM commerce_account_tokens WHERE token = ?", token) else { return nil }
        return AccountToken(
            token: try row.get("token"), customerId: try row.get("customer_id"), createdAt: try row.get("created_at"),
            revokedAt: try row.get("revoked_at"))
    }

    /// 48 letters and digits, like the vendor's secrets.
    static func clientSecret(_ random: any RandomSource) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<48).map { _ in alphabet[Int(random.uniform(below: UInt64(alphabet.count)))] })
    }
}
