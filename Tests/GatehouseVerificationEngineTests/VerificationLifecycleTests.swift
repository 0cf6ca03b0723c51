import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

@Suite struct VerificationLifecycleTests {
    static let mobile = "447400123456"

    @Test(arguments: TestDatabaseKind.available)
    func correctCodeVerifiesAndBillsTheFee(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let (record, code) = try await harness.startAndDeliver("+44 7400 123456", caller: caller)
        #expect(record.destination == Self.mobile)
        #expect(record.status(at: harness.clock.now) == .pending)
        #expect(code.count == 6)
        let verified = try await harness.engine.report(.id(record.id), method: "sms", code: code, caller: caller)
        #expect(verified.status(at: harness.clock.now) == .verified)
        #expect(try await harness.engine.balance(tenantID: harness.tenantID) == 10_000_000 - record.feeMicros)
        // Reading it back is idempotent; the same code again is fine, another is already_verified.
        #expect(try await harness.engine.report(.id(record.id), method: "sms", code: code, caller: caller).status(at: harness.clock.now) == .verified)
        await #expect(throws: VerificationFailure(.alreadyVerified)) {
            try await harness.engine.report(.id(record.id), method: "sms", code: "000000", caller: caller)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func threeWrongCodesThenTooManyAttempts(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let (record, code) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        let wrong = code == "111111" ? "222222" : "111111"
        for _ in 0..<3 {
            await #expect(throws: VerificationFailure(.codeInvalid)) {
                try await harness.engine.report(.id(record.id), method: "sms", code: wrong, caller: caller)
            }
        }
        // Even the right code is too late now; the answer is a 200 with the failure.
        let failed = try await harness.engine.report(.id(record.id), method: "sms", code: code, caller: caller)
        #expect(failed.status(at: harness.clock.now) == .failed)
        #expect(failed.outcome(at: harness.clock.now) == .tooManyAttempts)
        #expect(try await harness.engine.balance(tenantID: harness.tenantID) == 10_000_000)
    }

    @Test(arguments: TestDatabaseKind.available)
    func wrongMethodIsNotAWrongCode(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let (_, code) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        await #expect(throws: VerificationFailure(.deliveryMethodMismatch)) {
            try await harness.engine.report(.number(Self.mobile), method: "callout", code: code, caller: caller)
        }
        await #expect(throws: VerificationFailure([.deliveryMethodBlank, .codeBlank])) {
            try await harness.engine.report(.number(Self.mobile), method: nil, code: "", caller: caller)
        }
        let result = try await harness.engine.report(.number(Self.mobile), method: "sms", code: code, caller: caller)
        #expect(result.status(at: harness.clock.now) == .verified)
    }

    @Test(arguments: TestDatabaseKind.available)
    func expiryIsComputedOnRead(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.lifetimeSeconds = 60 }
        let (record, code) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        harness.clock.advance(by: 59)
        #expect(try await harness.engine.verification(.id(record.id), caller: caller).status(at: harness.clock.now) == .pending)
        harness.clock.advance(by: 1)
        let expired = try await harness.engine.report(.id(record.id), method: "sms", code: code, caller: caller)
        #expect(expired.status(at: harness.clock.now) == .expired)
        #expect(expired.outcome(at: harness.clock.now) == .expired)
    }

    @Test(arguments: TestDatabaseKind.available)
    func newStartSupersedesAndByNumberFindsTheNewest(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.cooldownSeconds = 0 }
        let (first, firstCode) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        let (second, _) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        let old = try await harness.engine.verification(.id(first.id), caller: caller)
        #expect(old.status(at: harness.clock.now) == .failed)
        #expect(old.outcome(at: harness.clock.now) == .superseded)
        #expect(try await harness.engine.verification(.number(Self.mobile), caller: caller).id == second.id)
        // The superseded code is dead even by id.
        let report = try await harness.engine.report(.id(first.id), method: "sms", code: firstCode, caller: caller)
        #expect(report.status(at: harness.clock.now) == .failed)
    }

    @Test(arguments: TestDatabaseKind.available)
    func otherApplicationsSeeNothing(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let mine = try await harness.caller()
        let theirs = try await harness.caller()
        let (record, _) = try await harness.startAndDeliver(Self.mobile, caller: mine)
        await #expect(throws: VerificationFailure(.notFound)) { try await harness.engine.verification(.id(record.id), caller: theirs) }
        await #expect(throws: VerificationFailure(.notFound)) { try await harness.engine.verification(.number(Self.mobile), caller: theirs) }
        await #expect(throws: VerificationFailure(.notFound)) {
            try await harness.engine.report(.id(record.id), method: "sms", code: "123456", caller: theirs)
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func deliveryFailureFailsTheVerification(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        harness.delivery.failing = true
        let caller = try await harness.caller()
        let record = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        try await harness.dispatcher.drain()
        let current = try await harness.engine.verification(.id(record.id), caller: caller)
        #expect(current.status(at: harness.clock.now) == .failed)
        #expect(current.outcome(at: harness.clock.now) == .failedToDeliver)
    }

    @Test(arguments: TestDatabaseKind.available)
    func finishedVerificationsArePurgedAfterRetention(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let (record, code) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        _ = try await harness.engine.report(.id(record.id), method: "sms", code: code, caller: caller)
        harness.clock.advance(by: 23 * 3600)
        try await harness.engine.sweep()
        #expect(try await harness.engine.verification(.id(record.id), caller: caller).id == record.id)
        harness.clock.advance(by: 3600 + 1)
        try await harness.engine.sweep()
        await #expect(throws: VerificationFailure(.notFound)) { try await harness.engine.verification(.number(Self.mobile), caller: caller) }
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentStartsLeaveOneLiveVerification(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.cooldownSeconds = 0 }
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller).id
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        var pending = 0
        for id in ids where try await harness.engine.verification(.id(id), caller: caller).status(at: harness.clock.now) == .pending {
            pending += 1
        }
        #expect(pending == 1)
        // With a cooldown, concurrent starts let exactly one through.
        let cooled = try await harness.caller { $0.cooldownSeconds = 60 }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    (try? await harness.engine.start(StartRequest(destination: "447400123499", deliveryMethod: "sms"), caller: cooled)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentReportsUseEachAttemptOnce(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.maxAttempts = 3 }
        let (record, code) = try await harness.startAndDeliver(Self.mobile, caller: caller)
        let wrong = code == "111111" ? "222222" : "111111"
        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        let result = try await harness.engine.report(.id(record.id), method: "sms", code: wrong, caller: caller)
                        return result.outcome(at: harness.clock.now).map { "\($0)" } ?? "none"
                    } catch let failure as VerificationFailure {
                        return "\(failure.codes[0])"
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == "codeInvalid" }.count == 3)
        #expect(outcomes.filter { $0 == "tooManyAttempts" }.count == 5)
    }
}
