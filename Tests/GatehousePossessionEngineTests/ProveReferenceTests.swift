import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehousePossessionEngine

/// What Prove's reference and its sandbox do, on both databases: Complete with the name or the
/// SSN alone, a flow the correlationId does not name, Start without a number, the short-term
/// test users that need no device, and address parts left out.
struct ProveReferenceTests {
    /// Prove's Pre-Fill short-term test user, as its sandbox page lists him.
    static let milo = IdentityRecord(
        phoneNumber: "2001001695", firstName: "Milo", lastName: "Pinson",
        addresses: [PostalAddress(address: "6377 Birchwood Hill", city: "Littleton", region: "CO", postalCode: "80161-2001")],
        emailAddresses: ["mpinsonm@dyndns.org"], dob: "1981-01-17", ssn: "847350596")

    func refusal(_ body: () async throws -> some Any) async -> PossessionError? {
        do { _ = try await body() } catch let error as PossessionError { return error } catch { Issue.record(error) }
        return nil
    }

    /// A production flow for Mary that passed the code and the challenge: Complete is next.
    func prefilled(_ h: PossessionHarness) async throws -> String {
        let s = try await h.engine.begin(authToken: try await h.start().authToken, testMode: false)
        _ = try await h.engine.otpStart(deviceToken: s.deviceToken, phoneNumber: nil)
        _ = try await h.engine.otpFinish(deviceToken: s.deviceToken, otp: try await h.code())
        _ = try await h.engine.validate(caller: h.caller, correlationId: s.authId)
        #expect(try await h.engine.challenge(caller: h.caller, correlationId: s.authId, dob: "1981-04-09", ssn: nil).success)
        h.clock.advance(by: 31)
        return s.authId
    }

    @Test(arguments: TestDatabaseKind.available)
    func completeTakesBothNamesOrTheSSNAlone(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        try await h.engine.importIdentities(tenantID: h.tenantID, [IdentityDirectoryTests.mary])
        let id = try await prefilled(h)
        let refused: [(Individual, PossessionError.Code, String)] = [
            (Individual(), .fieldMissing, "individual.firstName"),
            (Individual(firstName: "Mary"), .fieldMissing, "individual.lastName"),
            (Individual(lastName: "Jackson", dob: "1981-04-09"), .fieldMissing, "individual.firstName"),
            (Individual(ssn: "22233"), .fieldInvalid, "individual.ssn"),
            (Individual(firstName: "\u{7}", ssn: "4444"), .fieldInvalid, "individual.firstName"),
        ]
        for (individual, code, field) in refused {
            let error = await refusal { try await h.engine.complete(caller: h.caller, correlationId: id, individual: individual) }
            #expect(error?.code == code && error?.field == field, "\(individual)")
        }
        // The SSN alone: no name is compared, so none is scored or held against it.
        let alone = try await h.engine.complete(caller: h.caller, correlationId: id, individual: Individual(ssn: "222-33-4444"))
        #expect(alone.success && alone.comparison?.ssn == true && alone.comparison?.confidence == "high")
        #expect(alone.comparison?.firstName == nil && alone.comparison?.lastName == nil && alone.comparison?.nameScore == nil)

        let wrong = try await h.engine.complete(caller: h.caller, correlationId: try await prefilled(h), individual: Individual(ssn: "1111"))
        #expect(!wrong.success && wrong.comparison?.reasonCodes == ["SSN_MISMATCH"] && wrong.comparison?.confidence == "low")
        // One name with the SSN: that name is compared.
        let one = try await h.engine.complete(caller: h.caller, correlationId: try await prefilled(h), individual: Individual(firstName: "Marie", ssn: "4444"))
        #expect(one.comparison?.firstName != nil && one.comparison?.lastName == nil && one.comparison?.nameScore == one.comparison?.firstName)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aCorrelationIdThatNamesNoFlowIsNoSuchFlowOnEveryStep(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let theirs = try await h.engine.start(StartInput(flowType: "mobile", phoneNumber: PossessionHarness.number), caller: h.otherCaller, issuer: "https://g.example")
        for id in [UUID().uuidString, "not-a-uuid", theirs.correlationId] {
            #expect(await refusal { try await h.engine.validate(caller: h.caller, correlationId: id) }?.code == .noSuchFlow)
            #expect(await refusal { try await h.engine.challenge(caller: h.caller, correlationId: id, dob: "1981-04-09", ssn: nil) }?.code == .noSuchFlow)
            #expect(await refusal { try await h.engine.complete(caller: h.caller, correlationId: id, individual: Individual(ssn: "4444")) }?.code == .noSuchFlow)
        }
        // The directory's own refusals keep their meaning.
        #expect(await refusal { try await h.engine.removeIdentity(tenantID: h.tenantID, phoneNumber: PossessionHarness.number) }?.code == .notFound)
    }

    @Test(arguments: TestDatabaseKind.available)
    func startNeedsNoNumberAndTheDeviceIsAskedForIt(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        // The Go SDK README's own Start: a desktop flow with finalTargetUrl and nothing else.
        let desktop = try await h.start(StartInput(flowType: "desktop", finalTargetUrl: "https://www.example.com"))
        #expect(desktop.next == "v3-validate")
        #expect(await refusal { try await h.start(StartInput(flowType: "desktop")) }?.field == "finalTargetUrl")
        let mobile = try await h.start(StartInput(flowType: "mobile"))
        let session = try await h.engine.begin(authToken: mobile.authToken, testMode: true)
        let fallen = try await h.engine.carrierEvidence(deviceToken: session.deviceToken, CarrierEvidence(provider: "test"))
        #expect(fallen.next == .otpStart && fallen.phoneNumberNeeded == true, "test mode has no number to decide by")
        #expect(try await h.engine.otpStart(deviceToken: session.deviceToken, phoneNumber: "2025550142").next == .otpFinish)
        #expect(try await h.engine.otpFinish(deviceToken: session.deviceToken, otp: "1234").next == .done)
        #expect(try await h.engine.validate(caller: h.caller, correlationId: mobile.correlationId).phoneNumber == "+12025550142")
    }

    @Test(arguments: TestDatabaseKind.available)
    func aShortTermTestUserPassesValidateWithNoDevice(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        try await h.engine.importIdentities(tenantID: h.tenantID, [Self.milo])
        let started = try await h.start(StartInput(flowType: "desktop", phoneNumber: "2001001695", finalTargetUrl: "https://www.example.com"))
        let validated = try await h.engine.validate(caller: h.caller, correlationId: started.correlationId)
        #expect(validated == .init(success: true, challengeMissing: true, phoneNumber: "+12001001695", next: "v3-challenge"))
        let outcome = try await h.store.database.read { db in try db.queryOne("SELECT outcome FROM possession_flows WHERE id = ?", started.correlationId)?.get("outcome", as: String?.self) }
        #expect(outcome == "sandbox_short_term")
        #expect(await refusal { try await h.engine.begin(authToken: started.authToken, testMode: true) }?.code == .unauthorized, "no device may begin it after")
        let challenged = try await h.engine.challenge(caller: h.caller, correlationId: started.correlationId, dob: "1981-01-17", ssn: nil)
        #expect(challenged.success && challenged.individual?.firstName == "Milo" && challenged.individual?.ssn == "0596")
        let completed = try await h.engine.complete(caller: h.caller, correlationId: started.correlationId, individual: Individual(
            firstName: "Milo", lastName: "Pinson", addresses: [PostalAddress(address: "6377 Birchwood Hill", city: "Littleton", region: "CO", postalCode: "80161")],
            emailAddresses: ["mpinsonm@dyndns.org"], dob: "1981-01-17", ssn: "847350596"))
        #expect(completed.success && completed.comparison?.address?.score == 100 && completed.comparison?.ssn == true)
    }

    @Test(arguments: TestDatabaseKind.available)
    func onlyAnUnbegunSandboxFlowOfAShortTermNumberSkipsTheDevice(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        let pending = PossessionEngine.Validated(success: false, challengeMissing: false, phoneNumber: nil, next: "v3-validate")
        let other = try await h.start(StartInput(flowType: "mobile", phoneNumber: "2001001686"))
        #expect(try await h.engine.validate(caller: h.caller, correlationId: other.correlationId) == pending)
        let begun = try await h.start(StartInput(flowType: "mobile", phoneNumber: "2001004000"))
        _ = try await h.engine.begin(authToken: begun.authToken, testMode: true)
        #expect(try await h.engine.validate(caller: h.caller, correlationId: begun.correlationId) == pending, "a device that began must finish")
        let unbegun = try await h.start(StartInput(flowType: "mobile", phoneNumber: "2001004000"))
        try await h.engine.saveSettings(tenantID: h.tenantID, PossessionSettings(environment: .production), carrierSecret: nil)
        #expect(try await h.engine.validate(caller: h.caller, correlationId: unbegun.correlationId) == pending, "a sandbox made production stops its flows")
    }

    @Test func addressPartsLeftOutAreNotCompared() {
        let record = IdentityRecord(
            phoneNumber: "+12025550142", firstName: "Ada", lastName: "Lovelace",
            addresses: [PostalAddress(address: "12 North Main Street", extendedAddress: "Apt 4", city: "Springfield", region: "IL", postalCode: "62701")])
        func address(_ submitted: PostalAddress) -> IdentityComparison.Address? {
            IdentityMatch.compare(Individual(firstName: "Ada", lastName: "Lovelace", addresses: [submitted]), with: record).address
        }
        let noUnit = address(PostalAddress(address: "12 N Main St", city: "Springfield", region: "IL", postalCode: "62701"))
        #expect(noUnit == .init(street: true, city: true, region: true, postalCode: true) && noUnit?.score == 100)
        let unitOnLineOne = address(PostalAddress(address: "12 N Main St Apt 4", city: "Springfield"))
        #expect(unitOnLineOne == .init(street: true, city: true, region: nil, postalCode: nil) && unitOnLineOne?.score == 100)
        let wrongUnit = address(PostalAddress(address: "12 N Main St", extendedAddress: "Apt 5", city: "Springfield", region: "IL"))
        #expect(wrongUnit?.street == false && wrongUnit?.score == 66)
        #expect(address(PostalAddress(postalCode: "62701-0001")) == .init(street: nil, city: nil, region: nil, postalCode: true))
        #expect(address(PostalAddress()) == nil, "an address with no part is no address")
        let none = IdentityMatch.compare(Individual(firstName: "Ada", lastName: "Lovelace", addresses: [PostalAddress(city: "Paris")]), with: IdentityRecord(
            phoneNumber: "+12025550142", firstName: "Ada", lastName: "Lovelace"))
        #expect(none.address == .init(street: nil, city: false, region: nil, postalCode: nil) && none.reasonCodes == ["ADDRESS_MISMATCH"])
    }
}
