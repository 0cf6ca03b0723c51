import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehousePossessionEngine
import GatehouseFormats

/// Start's checks, the one-time authToken, the stored `next`, lifetimes on the manual clock,
/// and tenants kept apart, on both databases.
struct FlowRulesTests {
    func refusal(_ body: () async throws -> some Any) async -> PossessionError? {
        do { _ = try await body() } catch let error as PossessionError { return error } catch { Issue.record(error) }
        return nil
    }

    @Test(arguments: TestDatabaseKind.available)
    func startChecksEachFieldInProvesTerms(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let cases: [(StartInput, PossessionError.Code, String?)] = [
            (StartInput(flowType: nil, phoneNumber: PossessionHarness.number), .fieldMissing, "flowType"),
            (StartInput(flowType: "tablet"), .fieldInvalid, "flowType"),
            (StartInput(flowType: "desktop", phoneNumber: PossessionHarness.number), .fieldMissing, "finalTargetUrl"),
            (StartInput(flowType: "desktop", phoneNumber: PossessionHarness.number, finalTargetUrl: "https://x.example/a b"), .fieldInvalid, "finalTargetUrl"),
            (StartInput(flowType: "mobile", phoneNumber: "+1 416 555"), .phoneNumberInvalid, "phoneNumber"),
            (StartInput(flowType: "mobile", phoneNumber: "+1800\u{0}5550100"), .phoneNumberInvalid, "phoneNumber"),
            (StartInput(flowType: "mobile", dob: "1985-02-30"), .fieldInvalid, "dob"),
            (StartInput(flowType: "mobile", ssn: "12345"), .fieldInvalid, "ssn"),
            (StartInput(flowType: "mobile", emailAddress: "not-mail"), .fieldInvalid, "emailAddress"),
            (StartInput(flowType: "mobile", ipAddress: "300.1.1.1"), .fieldInvalid, "ipAddress"),
            (StartInput(flowType: "mobile", smsMessage: "Your code"), .fieldInvalid, "smsMessage"),
            (StartInput(flowType: "mobile", smsMessage: "Code ####### here"), .fieldInvalid, "smsMessage"),
            (StartInput(flowType: "mobile", smsMessage: "#### and ####"), .fieldInvalid, "smsMessage"),
            (StartInput(flowType: "mobile", smsMessage: String(repeating: "a", count: 157) + "####"), .fieldInvalid, "smsMessage"),
        ]
        for (input, code, field) in cases {
            let error = await refusal { try await h.start(input) }
            #expect(error?.code == code && error?.field == field, "\(input)")
        }
        #expect(try StartInput.codeLength(in: "Your code is #####.") == 5)
        #expect(try StartInput.codeLength(in: "####") == 4)
        let desktop = try await h.start(StartInput(flowType: "desktop", phoneNumber: "4165550172", finalTargetUrl: "https://shop.example/done?x=1"))
        #expect(desktop.next == "v3-validate")
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSandboxTakesProvesTestNumbers(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind, environment: .sandbox)
        defer { h.close() }
        _ = try await h.start(StartInput(flowType: "mobile", phoneNumber: "2001001695"))
        #expect(await refusal { try await h.start(StartInput(flowType: "mobile", phoneNumber: "200100")) }?.code == .phoneNumberInvalid)
    }

    @Test(arguments: TestDatabaseKind.available)
    func anAuthTokenBeginsOneFlowOnceAndAForgedOneNone(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let started = try await h.start()
        let session = try await h.engine.begin(authToken: started.authToken, testMode: false)
        #expect(session.authId == started.correlationId && session.progress.next == .otpStart && session.progress.phoneNumberNeeded == false)
        #expect(await refusal { try await h.engine.begin(authToken: started.authToken, testMode: false) }?.code == .unauthorized)
        // Signed with another key, or altered: the same answer.
        let parts = started.authToken.split(separator: ".")
        let forged = parts[0] + "." + parts[1] + "." + Base64URL.encode(HMAC.sha256(key: [UInt8](repeating: 1, count: 32), message: Array("x".utf8)))
        #expect(await refusal { try await h.engine.begin(authToken: String(forged), testMode: false) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.begin(authToken: "garbage", testMode: false) }?.code == .unauthorized)
        // A production tenant refuses test mode and leaves the token unspent.
        let other = try await h.start()
        #expect(await refusal { try await h.engine.begin(authToken: other.authToken, testMode: true) }?.code == .testModeRefused)
        _ = try await h.engine.begin(authToken: other.authToken, testMode: false)
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentBeginsOfOneTokenSpendItOnce(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let started = try await h.start()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { (try? await h.engine.begin(authToken: started.authToken, testMode: false)) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func nextIsEnforcedAndTheFlowLivesFifteenMinutes(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let started = try await h.start()
        let id = started.correlationId
        #expect(await refusal { try await h.engine.challenge(caller: h.caller, correlationId: id, dob: "1981-04-09", ssn: nil) }?.code == .stepNotAllowed)
        #expect(await refusal { try await h.engine.complete(caller: h.caller, correlationId: id, individual: Individual(firstName: "A", lastName: "B")) }?.code == .stepNotAllowed)
        #expect(await refusal { try await h.engine.validate(caller: h.caller, correlationId: nil) }?.code == .fieldMissing)
        // Another tenant's client sees no such flow.
        #expect(await refusal { try await h.engine.validate(caller: h.otherCaller, correlationId: id) }?.code == .noSuchFlow)
        let pending = try await h.engine.validate(caller: h.caller, correlationId: id)
        #expect(pending == .init(success: false, challengeMissing: false, phoneNumber: nil, next: "v3-validate"), "the device has not finished")
        h.clock.advance(by: 15 * 60 - 1)
        _ = try await h.engine.validate(caller: h.caller, correlationId: id)
        h.clock.advance(by: 1)
        #expect(await refusal { try await h.engine.validate(caller: h.caller, correlationId: id) }?.code == .flowExpired)
        #expect(await refusal { try await h.engine.begin(authToken: started.authToken, testMode: false) }?.code == .flowExpired)
    }

    @Test(arguments: TestDatabaseKind.available)
    func accessTokensLiveAnHourAndDieWithTheirClient(_ kind: TestDatabaseKind) async throws {
        let h = try await PossessionHarness(kind)
        defer { h.close() }
        let client = try await h.engine.issueClient(tenantID: h.tenantID, label: "backend")
        #expect(await refusal { try await h.engine.accessToken(clientID: client.client.id, clientSecret: client.secret + "x") }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.accessToken(clientID: "ghpc_zz", clientSecret: client.secret) }?.code == .unauthorized)
        let token = try await h.engine.accessToken(clientID: client.client.id, clientSecret: client.secret)
        #expect(token.expiresIn == 3600)
        h.clock.advance(by: 3599)
        #expect(try await h.engine.caller(bearer: token.token).tenantID == h.tenantID)
        h.clock.advance(by: 1)
        #expect(await refusal { try await h.engine.caller(bearer: token.token) }?.code == .unauthorized)
        let fresh = try await h.engine.accessToken(clientID: client.client.id, clientSecret: client.secret)
        try await h.engine.revokeClient(tenantID: h.tenantID, clientID: client.client.id)
        #expect(await refusal { try await h.engine.caller(bearer: fresh.token) }?.code == .unauthorized)
        #expect(await refusal { try await h.engine.accessToken(clientID: client.client.id, clientSecret: client.secret) }?.code == .unauthorized)
        let stored = try await h.store.database.read { db in try db.query("SELECT secret_hash FROM possession_clients").count }
        #expect(stored == 3, "clients are kept as hashes")
    }
}
