import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseAccountsEngine

/// The accounts' contact indexes: an account's phone, email and passkey handle are each unique
/// in its tenant, any number of accounts may lack one, and a lookup by phone reads the phone
/// index alone, not every account of the tenant.
@Suite struct AccountIndexTests {
    static let tenant = "t-1"

    static func database(_ kind: TestDatabaseKind, migrations: [Migration] = CoreMigrations.all + AccountsMigrations.all) async throws
        -> TestDatabase
    {
        let store = try await TestDatabase.migrated(kind, migrations, clock: ManualClock())
        try await store.database.write { db in
            try db.execute("INSERT INTO tenants (id, name, created_at) VALUES (?, 'Acme', 0)", tenant)
            // Phone accounts with neither email nor passkey, as the sign-in bench makes them.
            for index in 0..<300 {
                try db.execute(
                    "INSERT INTO accounts (id, tenant_id, phone, status, created_at) VALUES (?, ?, ?, 'CREATED', 0)",
                    "a-\(index)", tenant, "1416555\(1000 + index)")
            }
        }
        return store
    }

    @Test(arguments: TestDatabaseKind.available)
    func contactsAreUniqueInATenantAndMayBeMissing(_ kind: TestDatabaseKind) async throws {
        let store = try await Self.database(kind)
        defer { store.close() }
        try await store.database.write { db in
            try db.execute("INSERT INTO accounts (id, tenant_id, email, status, created_at) VALUES ('e-1', ?, 'ada@example.com', 'CREATED', 0)", Self.tenant)
            try db.execute("UPDATE accounts SET passkey_user_handle = 'h-1' WHERE id = 'a-1'")
        }
        for statement in [
            "INSERT INTO accounts (id, tenant_id, email, status, created_at) VALUES ('e-2', 't-1', 'ada@example.com', 'CREATED', 0)",
            "INSERT INTO accounts (id, tenant_id, phone, status, created_at) VALUES ('p-2', 't-1', '14165551001', 'CREATED', 0)",
            "UPDATE accounts SET passkey_user_handle = 'h-1' WHERE id = 'a-2'",
        ] {
            await #expect(throws: (any Error).self, "\(statement)") { try await store.database.write { db in _ = try db.execute(statement, []) } }
        }
        let counts = try await store.database.read { db in
            try db.queryOne(
                "SELECT COUNT(*) AS n, COUNT(email) AS emails, COUNT(passkey_user_handle) AS handles FROM accounts WHERE tenant_id = ?", Self.tenant)!
        }
        #expect(try counts.get("n", as: Int.self) == 301)
        #expect(try counts.get("emails", as: Int.self) == 1 && counts.get("handles", as: Int.self) == 1)
    }

    /// PostgreSQL's generic plan for the sign-in's lookup by phone or email, on a table it has
    /// no statistics for (as a busy new tenant's is): that contact's index, never another one
    /// led by the tenant (before `accounts.004`, the phone lookup walked the passkey index).
    @Test(arguments: [("phone", "14165551001", "accounts_by_phone"), ("email", "ada@example.com", "accounts_by_email")])
    func aLookupByContactReadsItsOwnIndex(_ column: String, _ value: String, _ index: String) async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let store = try await Self.database(.postgres)
        defer { store.close() }
        // The code request's lookup, then the sign-in's lock of the account and read of its
        // live sessions (found by the contact, sent with the code's lookup).
        let signIn = SessionService.signInStatements(condition: "\(column) = ?", forUpdate: " FOR UPDATE")
        let plans = try await store.database.write { db in
            [
                try genericPlan(
                    db, of: "SELECT * FROM accounts WHERE tenant_id = ? AND \(column) = ? AND deleted_at IS NULL", arguments: "'t-1', '\(value)'"),
                try genericPlan(db, of: signIn.lock, arguments: "'\(value)', 't-1'"),
                try genericPlan(db, of: signIn.live, arguments: "'\(value)', 't-1'"),
            ]
        }
        for plan in plans { #expect(plan.contains(index), "\(plan)") }
        #expect(plans[2].contains("account_sessions_by_account"), "\(plans[2])")
    }
}

extension AccountIndexTests {
    /// The same for a lookup by id with its tenant (a profile read, a refresh's account check):
    /// the primary key, never the phone index led by the tenant with the id as a filter.
    @Test func aLookupByIdReadsThePrimaryKey() async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let store = try await Self.database(.postgres)
        defer { store.close() }
        let plan = try await store.database.write { db in
            try genericPlan(db, of: "SELECT * FROM accounts WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL", arguments: "'a-7', 't-1'")
        }
        #expect(plan.contains("accounts_pkey"), "\(plan)")
    }
}
