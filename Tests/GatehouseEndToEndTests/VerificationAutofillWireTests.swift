import Foundation
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// `sms.autofill` in both forms: the object SDK 1.2 sends (`{"type","value"}`, the shape the
/// responses echo) and the older string, with the specific error of each bad value.
@Suite struct VerificationAutofillWireTests {
    static func start(_ harness: VerificationHarness, _ number: String, sms: String) async throws
        -> (status: Int, json: [String: Any], headers: [String: String])
    {
        try await harness.call(
            "POST", "/api/v1/verifications", body: #"{"data":{"destination":"\#(number)","delivery_method":"sms","sms":\#(sms)}}"#,
            authorization: harness.basic)
    }

    static func autofill(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> Any? {
        ((reply.json["data"] as? [String: Any])?["sms"] as? [String: Any])?["autofill"]
    }

    static func codes(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> [String] {
        (reply.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test(arguments: TestDatabaseKind.available)
    func eachObjectFormAndTheStringFormAreAccepted(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "smsDomain": "shop.example"], inProcess: true)
        let hash = try await Self.start(harness, "+447400123501", sms: #"{"autofill":{"type":"app_hash","value":"A1b2C3d4E5f"}}"#)
        #expect(hash.status == 201)
        #expect(Self.autofill(hash) as? [String: String] == ["type": "app_hash", "value": "A1b2C3d4E5f"])
        let domain = try await Self.start(harness, "+447400123502", sms: #"{"autofill":{"type":"domain"}}"#)
        #expect(domain.status == 201)
        #expect(Self.autofill(domain) as? [String: String] == ["type": "domain", "value": "shop.example"])
        let none = try await Self.start(harness, "+447400123503", sms: #"{"autofill":{"type":"none"}}"#)
        #expect(none.status == 201 && Self.autofill(none) is NSNull)
        // The object a response carries can be sent back as it is.
        let echoed = try await Self.start(harness, "+447400123504", sms: #"{"autofill":{"type":"domain","value":"shop.example"}}"#)
        #expect(echoed.status == 201 && Self.autofill(echoed) as? [String: String] == ["type": "domain", "value": "shop.example"])
        // The string form of older clients still works.
        let oldDomain = try await Self.start(harness, "+447400123505", sms: #"{"autofill":"domain"}"#)
        #expect(oldDomain.status == 201 && Self.autofill(oldDomain) as? [String: String] == ["type": "domain", "value": "shop.example"])
        let oldNone = try await Self.start(harness, "+447400123506", sms: #"{"autofill":"none"}"#)
        #expect(oldNone.status == 201 && Self.autofill(oldNone) is NSNull)
        // The markers reach the message.
        let hashed = try await harness.code(for: "447400123501")
        #expect(hashed.count == 6)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func badValuesGetTheirOwnErrors(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"], inProcess: true)
        let cases: [(String, [String])] = [
            (#"{"autofill":{"type":"app_hash","value":"short"}}"#, ["app_hash_invalid"]),
            (#"{"autofill":{"type":"app_hash"}}"#, ["app_hash_invalid"]),
            (#"{"autofill":{"type":"app_hash","value":12345678901}}"#, ["app_hash_invalid"]),
            (#"{"autofill":{"type":"domain"}}"#, ["sms_domain_not_configured"]),
            (#"{"autofill":"domain"}"#, ["sms_domain_not_configured"]),
            (#"{"autofill":{"type":"web_otp","value":"x"}}"#, ["validation_failed"]),
            (#"{"autofill":"sometimes"}"#, ["validation_failed"]),
            (#"{"autofill":5}"#, ["validation_failed"]),
            (#"{"autofill":["domain"]}"#, ["validation_failed"]),
            (#"{"autofill":{"type":5}}"#, ["validation_failed"]),
            (#"{"autofill":{"value":"A1b2C3d4E5f"}}"#, ["validation_failed"]),
            (#"{"autofill":{"type":"none","value":7}}"#, ["validation_failed"]),
            (#"{"app_hash":"A1b2C3d4E5f","autofill":{"type":"app_hash","value":"Z9y8X7w6V5u"}}"#, ["validation_failed"]),
        ]
        for (index, (sms, expected)) in cases.enumerated() {
            let reply = try await Self.start(harness, "+4474001236\(String(format: "%02d", index))", sms: sms)
            #expect(reply.status == 422, "\(sms)")
            #expect(Self.codes(reply) == expected, "\(sms)")
        }
        // A bad hash is reported together with the other failing fields.
        let several = try await harness.call(
            "POST", "/api/v1/verifications",
            body: #"{"data":{"destination":"x","delivery_method":"sms","sms":{"autofill":{"type":"app_hash","value":"short"}}}}"#,
            authorization: harness.basic)
        #expect(Self.codes(several) == ["destination_invalid", "app_hash_invalid"])
        await harness.stop()
    }
}
