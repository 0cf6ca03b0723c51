import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseAccountsEngine

/// The rule of seed 000 §07 for moving a plan, decided by the accounts engine itself.
@Suite struct OwnershipTests {
    static func insert(_ harness: SignInHarness, _ id: String, phone: String?, email: String?, deleted: Bool = false, tenant: String? = nil) async throws {
        let tenantID = tenant ?? harness.tenantID
        try await harness.store.database.write { db in
            try db.execute(
                "INSERT INTO accounts (id, tenant_id, phone, email, status, created_at, deleted_at) VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?)",
                [.text(id), .text(tenantID), phone.sqlValue, email.sqlValue, Date(timeIntervalSince1970: 1).sqlValue,
                 deleted ? Date(timeIntervalSince1970: 2).sqlValue : .null])
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSharedPhoneOrEmailIsTheSameOwner(_ kind: TestDatabaseKind) async throws {
        let harness = try await SignInHarness(kind, policy: OneTimeCodePolicy())
        defer { harness.close() }
        // Phone and email are unique per tenant, so a live holder shares them only with itself.
        try await Self.insert(harness, "a-both", phone: "14165550100", email: "old@example.com")
        try await Self.insert(harness, "b-phone", phone: "14165550103", email: nil)
        try await Self.insert(harness, "c-email", phone: nil, email: "c@example.com")
        try await Self.insert(harness, "d-other", phone: "14165550101", email: "new@example.com")
        try await Self.insert(harness, "e-gone", phone: "14165550102", email: nil, deleted: true)
        let accounts = harness.accounts
        let tenant = harness.tenantID
        #expect(try await accounts.ownership(tenantID: tenant, holder: "a-both", reporter: "a-both") == .sameOwner)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "b-phone", reporter: "b-phone") == .sameOwner)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "c-email", reporter: "c-email") == .sameOwner)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "a-both", reporter: "d-other") == .unrelated)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "b-phone", reporter: "c-email") == .unrelated)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "e-gone", reporter: "d-other") == .holderDeleted)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "nobody", reporter: "d-other") == .holderDeleted)
        #expect(try await accounts.ownership(tenantID: tenant, holder: "a-both", reporter: "nobody") == .unrelated)
    }

    /// An account of another tenant is no account here, whatever it shares.
    @Test(arguments: TestDatabaseKind.available)
    func anotherTenantsAccountIsNone(_ kind: TestDatabaseKind) async throws {
        let harness = try await SignInHarness(kind, policy: OneTimeCodePolicy())
        defer { harness.close() }
        let other = "tenant-other"
        try await harness.store.database.write { db in
            try db.execute("INSERT INTO tenants (id, name, created_at) VALUES (?, 'Other', ?)", [.text(other), Date(timeIntervalSince1970: 1).sqlValue])
        }
        try await Self.insert(harness, "mine", phone: "14165550100", email: nil)
        try await Self.insert(harness, "theirs", phone: "14165550100", email: nil, tenant: other)
        #expect(try await harness.accounts.ownership(tenantID: harness.tenantID, holder: "theirs", reporter: "mine") == .holderDeleted)
        #expect(try await harness.accounts.ownership(tenantID: harness.tenantID, holder: "mine", reporter: "theirs") == .unrelated)
    }
}
