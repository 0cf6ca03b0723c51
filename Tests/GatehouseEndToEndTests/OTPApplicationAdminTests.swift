import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// The operator API for OTP applications, templates, balances and the outbox.
@Suite struct OTPApplicationAdminTests {
    @Test(arguments: TestDatabaseKind.available)
    func applicationsAreCreatedReadAndChanged(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let admin = live.admin
        let tenant = live.credentials.tenantId
        let created = try await admin.sendRaw(
            "POST", "/admin/v1/tenants/\(tenant)/otp-applications",
            body: Data(#"{"name":"Shop","minimumAuth":"public","callbackUrl":"https://shop.example/cb","codeLength":8,"lifetimeSeconds":120,"disabledCountries":["ru"],"dailyLimit":100,"smsFee":"0.0345"}"#.utf8))
        let json = try JSONSerialization.jsonObject(with: created) as! [String: Any]
        #expect(Set(json.keys) == ["application", "secret"])
        let app = json["application"] as! [String: Any]
        #expect(app["secret"] == nil)
        #expect(app["codeLength"] as? Int == 8 && app["lifetimeSeconds"] as? Int == 120)
        #expect(app["disabledCountries"] as? [String] == ["RU"])
        #expect(app["smsFee"] as? String == "0.0345" && app["calloutFee"] as? String == "0.10")
        #expect(app["monthlyLimit"] is NSNull)
        let id = app["id"] as! String
        let secret = json["secret"] as! String
        #expect(secret.count >= 43)

        let patched = try await admin.send(
            "PATCH", "/admin/v1/tenants/\(tenant)/otp-applications/\(id)",
            body: RawJSON(Data(#"{"callbackUrl":null,"paused":true,"dailyLimit":null}"#.utf8)), as: AdminWire.OTPApplication.self)
        #expect(patched.callbackUrl == nil && patched.paused && patched.dailyLimit == nil && patched.codeLength == 8)
        let list = try await admin.send("GET", "/admin/v1/tenants/\(tenant)/otp-applications", as: AdminWire.List<AdminWire.OTPApplication>.self)
        #expect(list.data.map(\.name).sorted() == ["Development verification", "Shop"])

        // Hostile and wrong values are refused with the envelope; nothing changes.
        let refusals: [(String, String)] = [
            (#"{"codeLength":9}"#, "invalid_argument"), (#"{"codeLength":"6"}"#, "invalid_body"), (#"{"paused":1}"#, "invalid_body"),
            (#"{"lifetimeSeconds":30}"#, "invalid_argument"), (#"{"callbackUrl":"ftp://x"}"#, "invalid_argument"),
            (#"{"minimumAuth":"root"}"#, "invalid_body"), (#"{"smsFee":"-1"}"#, "invalid_argument"),
            (#"{"smsDomain":"https://x.example"}"#, "invalid_argument"), (#"{"secret":"mine"}"#, "unknown_field"),
            (#"{"disabledCountries":["GBR"]}"#, "invalid_argument"), ("[1]", "invalid_body"),
            // `null` clears only what can be empty: a code length, a name or a mode cannot.
            (#"{"codeLength":null}"#, "invalid_body"), (#"{"name":null}"#, "invalid_body"), (#"{"minimumAuth":null}"#, "invalid_body"),
            (#"{"paused":null}"#, "invalid_body"),
        ]
        for (body, code) in refusals {
            do {
                try await admin.sendRaw("PATCH", "/admin/v1/tenants/\(tenant)/otp-applications/\(id)", body: Data(body.utf8))
                Issue.record("accepted \(body)")
            } catch let error as GatehouseClientError {
                #expect(error.code?.rawValue == code, "\(body)")
            }
        }
        let unchanged = try await admin.send("GET", "/admin/v1/tenants/\(tenant)/otp-applications/\(id)", as: AdminWire.OTPApplication.self)
        #expect(unchanged == patched)

        // Another tenant's application is not found.
        let other = try await admin.send("POST", "/admin/v1/tenants", body: AdminWire.CreateTenant(name: "Other"), as: AdminWire.Tenant.self)
        await #expect(throws: GatehouseClientError.self) {
            try await admin.sendRaw("GET", "/admin/v1/tenants/\(other.id)/otp-applications/\(id)")
        }

        // Templates and balance.
        try await admin.sendRaw(
            "PUT", "/admin/v1/tenants/\(tenant)/otp-applications/\(id)/templates/checkout/sms/en-us",
            body: Data(#"{"body":"Shop code: {{CODE}}"}"#.utf8))
        do {
            try await admin.sendRaw(
                "PUT", "/admin/v1/tenants/\(tenant)/otp-applications/\(id)/templates/checkout/sms/en-US", body: Data(#"{"body":"no code"}"#.utf8))
            Issue.record("a template without {{CODE}} was accepted")
        } catch let error as GatehouseClientError { #expect(error.code?.rawValue == "invalid_argument") }
        let balance = try await admin.send(
            "POST", "/admin/v1/tenants/\(tenant)/verification-balance", body: RawJSON(Data(#"{"amount":"5.25"}"#.utf8)), as: AdminWire.Balance.self)
        #expect(balance.balance == "105.25")
        await live.stop()
    }
}
