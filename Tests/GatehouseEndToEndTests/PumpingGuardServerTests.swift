import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SMS-pumping guard through the live server: a spent prefix budget is the DIDWW
/// dialect's 429 `volume_limit_reached`; a burst nobody enters is blocked, logged and
/// counted, listed and lifted through the admin API, while other prefixes keep working.
@Suite struct PumpingGuardServerTests {
    func start(_ harness: VerificationHarness, _ number: String) async throws -> (status: Int, json: [String: Any], headers: [String: String]) {
        try await harness.call(
            "POST", "/api/v1/verifications", body: #"{"data":{"destination":"+\#(number)","delivery_method":"sms"}}"#, authorization: harness.basic)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSpentPrefixBudgetIsTheDialectsVolumeLimit(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "prefixHourlyLimit": 2, "autoBlockPrefixes": false], inProcess: true)
        do {
            #expect(harness.app.prefixHourlyLimit == 2 && harness.app.prefixDailyLimit == nil && !harness.app.autoBlockPrefixes)
            #expect(try await start(harness, "447400123401").status == 201)
            #expect(try await start(harness, "447400123402").status == 201)
            let refused = try await start(harness, "447400123403")
            #expect(refused.status == 429)
            let retryAfter = try #require(refused.headers["retry-after"].flatMap(Int.init))
            #expect((1...3600).contains(retryAfter))
            let errors = try #require(refused.json["errors"] as? [[String: Any]])
            #expect(errors.count == 1 && errors[0]["code"] as? String == "volume_limit_reached")
            #expect(errors[0]["detail"] as? String == "verification volume limit reached")
            #expect(try await start(harness, "447800123401").status == 201)
            // The settings read back as written; a budget that is not a positive number is refused.
            let admin = harness.live.admin
            let path = "/admin/v1/tenants/\(harness.live.credentials.tenantId)/otp-applications/\(harness.app.id)"
            let shown = String(decoding: try await admin.sendRaw("GET", path), as: UTF8.self)
            #expect(shown.contains(#""prefixHourlyLimit":2"#) && shown.contains(#""countryHourlyLimit":null"#) && shown.contains(#""autoBlockPrefixes":false"#))
            for bad in [#"{"prefixHourlyLimit":0}"#, #"{"countryDailyLimit":"9"}"#, #"{"autoBlockPrefixes":1}"#, #"{"prefixDailyLimit":18446744073709551616}"#] {
                let status = try await harness.call("PATCH", path, body: bad, authorization: "Bearer \(harness.live.credentials.adminToken)").status
                #expect(status == 400, "\(bad)")
            }
        } catch { Issue.record(error) }
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aBurstIsBlockedLoggedCountedAndLifted(_ kind: TestDatabaseKind) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"], clock: clock, inProcess: true)
        do {
            // Ordinary traffic that converts, then codes to 447400 every 5 seconds that nobody enters:
            // the 33rd finds 20 of them past the judging delay (a minute, counted from the start of
            // a ten-second bucket, so a code is judged up to ten seconds late, never early), and
            // blocks the prefix.
            for index in 0..<4 {
                let number = "44780012340\(index)"
                let started = try await start(harness, number)
                let id = try #require((started.json["data"] as? [String: Any])?["id"] as? String)
                let code = try await harness.code(for: number)
                let report = try await harness.call(
                    "PATCH", "/api/v1/verifications/\(id)", body: #"{"data":{"code":"\#(code)","delivery_method":"sms"}}"#,
                    authorization: harness.basic)
                #expect(report.status == 200, "\(report.json)")
            }
            var statuses: [Int] = []
            for index in 0..<36 {
                statuses.append(try await start(harness, "4474001234" + String(format: "%02d", index)).status)
                // The counts this start left in node memory are written before the next start
                // looks: a flush committing while a start reads may count its batch twice or
                // not at all for that read (see `PendingCounts`), and the counts below are exact.
                try await harness.live.app.deliveries.drain()
                clock.advance(by: 5)
            }
            #expect(statuses.prefix(33).allSatisfy { $0 == 201 } && statuses.dropFirst(33).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(try await start(harness, "447800123499").status == 201)

            let line = try #require(harness.live.logs.lines.first { $0.contains("SMS pumping suspected") })
            #expect(line.contains(#""level":"warning""#) && line.contains(#""country":"GB""#) && line.contains(#""sent":"20""#) && line.contains(#""prefix":"+447400""#), "\(line)")
            let metrics = String(decoding: try await harness.live.transport.send(URLRequest(url: harness.live.baseURL.appendingPathComponent("metrics"))).0, as: UTF8.self)
            #expect(metrics.contains(#"gatehouse_verification_prefix_blocks_total{reason="conversion"} 1"#))

            let admin = harness.live.admin
            let base = "/admin/v1/tenants/\(harness.live.credentials.tenantId)/prefix-blocks"
            let listed = try JSONSerialization.jsonObject(with: try await admin.sendRaw("GET", base)) as? [String: Any]
            let block = try #require((listed?["data"] as? [[String: Any]])?.first)
            #expect(block["prefix"] as? String == "+447400" && block["reason"] as? String == "conversion" && block["active"] as? Bool == true)
            #expect(block["applicationId"] as? String == harness.app.id && block["sent"] as? Int == 20 && block["verified"] as? Int == 0)
            #expect(block["blockedUntil"] is String && block["liftedAt"] is NSNull && block["country"] as? String == "GB")
            let conversion = try JSONSerialization.jsonObject(with: try await admin.sendRaw(
                "GET", "/admin/v1/tenants/\(harness.live.credentials.tenantId)/otp-applications/\(harness.app.id)/conversion")) as? [String: Any]
            let prefixes = try #require(conversion?["prefixes"] as? [[String: Any]])
            #expect(prefixes.contains { $0["value"] as? String == "+447400" && $0["sent"] as? Int == 33 && $0["verified"] as? Int == 0 }, "\(prefixes)")
            let countries = try #require(conversion?["countries"] as? [[String: Any]])
            #expect(countries.contains { $0["value"] as? String == "GB" && $0["sent"] as? Int == 38 && $0["verified"] as? Int == 4 }, "\(countries)")
            #expect(conversion?["baseline"] as? Double == 0.5)

            try await admin.sendRaw("DELETE", base + "/%2B447400?applicationId=\(harness.app.id)")
            #expect(try await start(harness, "447400123498").status == 201)
            let again = try await harness.call("DELETE", base + "/%2B447400", authorization: "Bearer \(harness.live.credentials.adminToken)")
            #expect(again.status == 404)
            for bad in [#"{"prefix":"+44\u0000"}"#, #"{"prefix":447400}"#, #"{"prefix":"+447400","extra":1}"#, #"{"prefix":"+447400","applicationId":"nope"}"#] {
                let status = try await harness.call("POST", base, body: bad, authorization: "Bearer \(harness.live.credentials.adminToken)").status
                #expect([400, 404].contains(status), "\(bad): \(status)")
            }
        } catch { Issue.record(error) }
        await harness.stop()
    }
}
