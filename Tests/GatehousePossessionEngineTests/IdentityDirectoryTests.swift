import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehousePossessionEngine

/// The identity directory: sealed at rest, checked on import, and how Challenge and Complete
/// compare with it.
struct IdentityDirectoryTests {
    static let mary = IdentityRecord(
        phoneNumber: "416 555 0172", firstName: "Mary", lastName: "Jackson",
        addresses: [PostalAddress(address: "39 Queen Street West", extendedAddress: "Suite 100", city: "Toronto", region: "ON", postalCode: "M5H 2N2")],
        emailAddresses: ["Mary@Example.com"], dob: "1981-04-09", ssn: "222334444")

    @Test(arguments: TestDatabaseKind.available)
    func datesOfBirthAndSSNsAreSealedAtRest(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        #expect(try await h.engine.importIdentities(tenantID: h.tenantID, [Self.mary]) == 1)
        let row = try await h.store.database.read { db in try db.queryOne("SELECT * FROM possession_identities")! }
        #expect(try row.get("phone_number") as String == "+14165550172")
        for column in ["sealed_dob", "sealed_ssn"] {
            let sealed: String = try row.get(column)
            #expect(sealed.hasPrefix("v1.") && !sealed.contains("1981") && !sealed.contains("4444"))
        }
        // Another tenant's directory does not hold it.
        #expect(try await h.engine.identityCount(tenantID: h.otherTenantID) == 0)
        var bad = Self.mary
        bad.ssn = "12-34"
        await #expect(throws: PossessionError.self) { try await h.engine.importIdentities(tenantID: h.tenantID, [Self.mary, bad]) }
        bad = Self.mary
        bad.firstName = "Ma\u{7}ry"
        await #expect(throws: PossessionError.self) { try await h.engine.importIdentities(tenantID: h.tenantID, [bad]) }
        try await h.engine.removeIdentity(tenantID: h.tenantID, phoneNumber: "+14165550172")
        #expect(try await h.engine.identityCount(tenantID: h.tenantID) == 0)
    }

    @Test(arguments: TestDatabaseKind.available)
    func challengeAndCompleteAfterACode(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        try await h.engine.importIdentities(tenantID: h.tenantID, [Self.mary])
        let started = try await h.start()
        let s = try await h.engine.begin(authToken: started.authToken, testMode: false)
        _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
        _ = try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: try await h.code())
        #expect(try await h.engine.validate(caller: h.caller, correlationId: s.authId).challengeMissing)
        let wrong = try await h.engine.challenge(caller: h.caller, correlationId: s.authId, dob: "04-10", ssn: nil)
        #expect(!wrong.success && wrong.individual == nil && wrong.next == "v3-challenge")
        let right = try await h.engine.challenge(caller: h.caller, correlationId: s.authId, dob: "04-09", ssn: "4444")
        #expect(right.success && right.individual?.ssn == "4444" && right.individual?.firstName == "Mary" && right.next == "v3-complete")
        let done = try await h.engine.complete(caller: h.caller, correlationId: s.authId, individual: Individual(
            firstName: "MARY", lastName: "Jackson", addresses: [PostalAddress(address: "39 Queen St W", extendedAddress: "Ste 100", city: "toronto", region: "on", postalCode: "m5h2n2")],
            emailAddresses: ["mary@example.com", "ignored@example.com"], dob: "1981-04-09", ssn: "4444"))
        #expect(done.success && done.next == "done", "\(String(describing: done.comparison))")
        #expect(done.comparison?.address?.score == 100 && done.comparison?.email == true && done.comparison?.last4 == true && done.comparison?.dob == true)
        #expect(done.changeDetected == true)
        await #expect(throws: PossessionError.self) { try await h.engine.complete(caller: h.caller, correlationId: s.authId, individual: Individual(firstName: "M", lastName: "J")) }
    }

    @Test func textIsFoldedAsComparisonsNeed() {
        #expect(PossessionText.folded(" José  O'Neil ") == "jose o neil")
        #expect(PossessionText.street("12 North Main Street, Apt. 4") == "12 n main st apt 4")
        #expect(PossessionText.region("New York") == "ny" && PossessionText.region("NY") == "ny")
        #expect(PossessionText.postalCode("62701-1234") == "62701")
        #expect(PossessionText.similarity("jon", "john") == 75 && PossessionText.similarity("", "") == 100)
        #expect(BirthDate("1985-12-10")?.matches(BirthDate("1985-12-10")!) == true)
        #expect(BirthDate("12-10")?.matches(BirthDate("1985-12-10")!) == true && BirthDate("1985-11")?.matches(BirthDate("1985-12-10")!) == false)
        #expect(BirthDate("1985-02-29") == nil && BirthDate("12/10/1985") == nil && BirthDate("1985-13") == nil)
        // Long input stays linear enough: a 100-character name against another.
        #expect(PossessionText.similarity(String(repeating: "a", count: 100), String(repeating: "b", count: 100)) == 0)
    }
}
