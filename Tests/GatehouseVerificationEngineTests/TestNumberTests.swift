import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// Test numbers: nothing sent, nothing billed, the fixed code verifies, and everything else
/// (attempts, supersede) as for any number; reserved ranges only unless confirmed; a limit.
struct TestNumberTests {
    @Test(arguments: TestDatabaseKind.available)
    func aTestNumbersStartSendsNothingAndItsFixedCodeVerifies(_ kind: TestDatabaseKind) async throws {
        let h = try await EngineHarness(kind)
        defer { h.close() }
        let caller = try await h.caller { $0.smsFee = "0.05" }
        try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+14155550123", code: "246810", confirmed: false)
        let balance = try await h.engine.balance(tenantID: h.tenantID)
        let record = try await h.engine.start(StartRequest(destination: "14155550123", deliveryMethod: "sms"), caller: caller)
        #expect(record.feeMicros == 0 && record.dispatchedAt != nil)
        try await h.dispatcher.drain()
        #expect(h.delivery.messages.isEmpty, "nothing is sent")
        await #expect(throws: VerificationFailure.self) { try await h.engine.report(.id(record.id), method: "sms", code: "135790", caller: caller) }
        let verified = try await h.engine.report(.id(record.id), method: "sms", code: "246810", caller: caller)
        #expect(verified.status(at: h.clock.now) == .verified)
        #expect(try await h.engine.balance(tenantID: h.tenantID) == balance, "nothing is billed")
        #expect(h.engine.testNumberUses.value(["tenant": h.tenantID]) == 1)
        // Another tenant's test number is nobody's here.
        let real = try await h.engine.start(StartRequest(destination: "14155550124", deliveryMethod: "sms"), caller: caller)
        try await h.dispatcher.drain()
        #expect(real.feeMicros > 0 && h.delivery.messages.count == 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func onlyReservedRangesUnlessConfirmedAndAtMostTen(_ kind: TestDatabaseKind) async throws {
        let h = try await EngineHarness(kind)
        defer { h.close() }
        for reserved in ["+14165550100", "+447700900123", "+61491570006", "reviewer@example.com", "ci@shop.test"] {
            try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: reserved, code: "123456", confirmed: false)
        }
        await #expect(throws: CoreError.self) { try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+14165550200", code: "123456", confirmed: false) }
        await #expect(throws: CoreError.self) { try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "reviewer@gmail.com", code: "123456", confirmed: false) }
        await #expect(throws: CoreError.self) { try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+14165550101", code: "12a456", confirmed: false) }
        for index in 0..<5 {
            try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+1416555021\(index)", code: "123456", confirmed: true)
        }
        await #expect(throws: CoreError.self) { try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+14165550219", code: "123456", confirmed: true) }
        // Replacing one already held is not a new one.
        try await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "14165550100", code: "654321", confirmed: false)
        #expect(try await h.engine.testNumbers(tenantID: h.tenantID).count == 10)
        try await h.engine.removeTestNumber(tenantID: h.tenantID, destination: "+14165550100")
        await #expect(throws: CoreError.self) { try await h.engine.removeTestNumber(tenantID: h.tenantID, destination: "+14165550100") }
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentSavesNeverPassTheLimit(_ kind: TestDatabaseKind) async throws {
        let h = try await EngineHarness(kind)
        defer { h.close() }
        let saved = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    (try? await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+141655502\(10 + index)", code: "123456", confirmed: true)) != nil
                }
            }
            // The same number twice at once is one number.
            for _ in 0..<2 {
                group.addTask {
                    (try? await h.engine.saveTestNumber(tenantID: h.tenantID, destination: "+14165550100", code: "123456", confirmed: false)) != nil
                }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(try await h.engine.testNumbers(tenantID: h.tenantID).count == 10)
        #expect(saved >= 10)
        await #expect(throws: CoreError.self) { try await h.engine.saveTestNumber(tenantID: "no-such-tenant", destination: "+14165550101", code: "123456", confirmed: false) }
    }
}
