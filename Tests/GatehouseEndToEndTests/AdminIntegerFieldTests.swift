import Foundation
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Integer fields of the operator API are read from their digits, never through a `Double`:
/// a number that is not exactly an integer in the field's range is 400 naming the range.
@Suite struct AdminIntegerFieldTests {
    static let counts = "must be an integer from 0 to 2147483647"

    @Test func otpApplicationNumbersAreExact() async throws {
        let live = try await LiveServer.start(inProcess: true)
        let path = try await Self.application(live)
        let refusals: [(body: String, message: String)] = [
            (#"{"codeLength":0.9999999999999999999}"#, "codeLength " + Self.counts),
            (#"{"codeLength":6.000000000000000001}"#, "codeLength " + Self.counts),
            (#"{"maxAttempts":1.5}"#, "maxAttempts " + Self.counts),
            (#"{"dailyLimit":9223372036854775807}"#, "dailyLimit " + Self.counts),
            (#"{"dailyLimit":9223372036854775808}"#, "dailyLimit " + Self.counts),
            (#"{"monthlyLimit":2147483648}"#, "monthlyLimit " + Self.counts),
            (#"{"cooldownSeconds":-1}"#, "cooldownSeconds " + Self.counts),
            (#"{"lifetimeSeconds":1e400}"#, ""),
            (#"{"prefixHourlyLimit":"10"}"#, "prefixHourlyLimit " + Self.counts),
        ]
        for (body, message) in refusals {
            let answer = try await raw(live, "PATCH", path, token: live.credentials.adminToken, body: Data(body.utf8))
            #expect(answer.status == 400, "\(body)")
            let error = try JSONDecoder().decode(Envelope.self, from: answer.body).error
            // 1e400 is past any Double: refused as a number out of range by the JSON reader.
            if !message.isEmpty { #expect(error.code == "invalid_body" && error.message == message, "\(body)") }
        }
        // Written with a fraction or an exponent, an exact integer is that integer.
        let accepted = try await raw(
            live, "PATCH", path, token: live.credentials.adminToken,
            body: Data(#"{"dailyLimit":1e3,"cooldownSeconds":60.0,"monthlyLimit":2147483647,"prefixDailyLimit":null}"#.utf8))
        #expect(accepted.status == 200)
        let app = try JSONSerialization.jsonObject(with: accepted.body) as! [String: Any]
        #expect(app["dailyLimit"] as? Int == 1000 && app["cooldownSeconds"] as? Int == 60 && app["monthlyLimit"] as? Int == 2_147_483_647)
        await live.stop()
    }

    @Test func workflowNumbersAreExact() async throws {
        let live = try await LiveServer.start(inProcess: true)
        let tenant = "/admin/v1/tenants/\(live.credentials.tenantId)"
        let definition = #"{"name":"Probe","executor":{"kind":"url-check"},"credits":CREDITS}"#
        let refusals: [(method: String, path: String, body: String, message: String)] = [
            ("PUT", "/workflows/wf-probe-001", definition.replacingOccurrences(of: "CREDITS", with: "0.9999999999999999999"), "credits " + Self.counts),
            ("PUT", "/workflows/wf-probe-001", definition.replacingOccurrences(of: "CREDITS", with: "9223372036854775807"), "credits " + Self.counts),
            ("PATCH", "/workflow-settings", #"{"maxConcurrentRuns":2.5}"#, "maxConcurrentRuns " + Self.counts),
            // A limit has no empty value: `null` is refused, not answered as if kept.
            ("PATCH", "/workflow-settings", #"{"maxConcurrentRuns":null}"#, "maxConcurrentRuns: cannot be null"),
            ("POST", "/accounts/acct-1/credits", #"{"credits":0.9999999999999999999}"#, "credits must be an integer from 1 to 1000000000"),
            ("POST", "/accounts/acct-1/credits", #"{"credits":9223372036854775807}"#, "credits must be an integer from 1 to 1000000000"),
        ]
        for (method, path, body, message) in refusals {
            let answer = try await raw(live, method, tenant + path, token: live.credentials.adminToken, body: Data(body.utf8))
            #expect(answer.status == 400, "\(body)")
            let error = try JSONDecoder().decode(Envelope.self, from: answer.body).error
            #expect(error.code == "invalid_body" && error.message == message, "\(body)")
        }
        let saved = try await raw(
            live, "PUT", tenant + "/workflows/wf-probe-001", token: live.credentials.adminToken,
            body: Data(definition.replacingOccurrences(of: "CREDITS", with: "2.0").utf8))
        #expect(saved.status == 200)
        #expect((try JSONSerialization.jsonObject(with: saved.body) as? [String: Any])?["credits"] as? Int == 2)
        await live.stop()
    }

    private struct Envelope: Decodable {
        struct Body: Decodable {
            let code: String
            let message: String
        }
        let error: Body
    }

    /// A new OTP application's path.
    private static func application(_ live: LiveServer) async throws -> String {
        let base = "/admin/v1/tenants/\(live.credentials.tenantId)/otp-applications"
        let created = try await raw(live, "POST", base, token: live.credentials.adminToken, body: Data(#"{"name":"Shop"}"#.utf8))
        let json = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
        let id = try #require((json["application"] as? [String: Any])?["id"] as? String)
        return base + "/" + id
    }
}
