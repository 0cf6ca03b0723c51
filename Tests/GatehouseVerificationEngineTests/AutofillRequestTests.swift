import Foundation
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// The engine's side of `sms.autofill`: each kind stored as the marker it asks for.
@Suite struct AutofillRequestTests {
    @Test(arguments: TestDatabaseKind.available)
    func eachKindIsStoredOrRefused(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let plain = try await harness.caller()
        let domained = try await harness.caller { $0.smsDomain = .some("shop.example") }
        func start(_ number: String, _ autofill: AutofillRequest?, _ caller: VerificationCaller) async throws -> VerificationRecord {
            try await harness.engine.start(StartRequest(destination: number, deliveryMethod: "sms", autofill: autofill), caller: caller)
        }
        let hashed = try await start("+447400123601", .appHash("A1b2C3d4E5f"), plain)
        #expect(hashed.autofillType == "app_hash" && hashed.autofillValue == "A1b2C3d4E5f")
        let domain = try await start("+447400123602", .domain, domained)
        #expect(domain.autofillType == "domain" && domain.autofillValue == "shop.example")
        #expect(try await start("+447400123603", .disabled, domained).autofillType == nil)
        #expect(try await start("+447400123604", nil, domained).autofillType == "domain")
        await #expect(throws: VerificationFailure(.smsDomainNotConfigured)) { try await start("+447400123605", .domain, plain) }
        await #expect(throws: VerificationFailure(.appHashInvalid)) { try await start("+447400123606", .appHash("short"), plain) }
        await #expect(throws: VerificationFailure(.validationFailed)) { try await start("+447400123607", .unknown("web_otp"), plain) }
        #expect(AutofillRequest(type: "app_hash", value: nil) == .appHash(""))
        #expect(AutofillRequest(type: "none", value: "x") == .disabled)
    }
}
