import Foundation
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// Concurrent duplicates of the typed admin and store setup writes: a plan's product id (and
/// Google subscription) is claimed once, balance changes all count, and concurrent saves leave
/// one whole configuration.
@Suite struct ConcurrentAdminWritesTests {
    @Test(arguments: TestDatabaseKind.available)
    func aPlanCreatedSixteenTimesAtOnceLandsOnce(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let base = "tenants/v1/\(live.credentials.tenantId)/service-entitlement-products"
        let statuses = try await atOnce(Array(0..<16)) { index in
            try await client.call(
                "POST", base,
                ["displayName": "Plan \(index)", "interval": "annual", "platformProductIds": ["apple": "com.example.app.yearly"]],
                token: admin).status
        }
        #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 409 }.count == 15, "\(statuses)")
        let plans = try await client.call("GET", base, token: admin)
        #expect((plans.json["data"] as? [[String: Any]])?.count == 1)
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentBalanceChangesAllCount(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let admin = live.admin
        let path = "/admin/v1/tenants/\(live.credentials.tenantId)/verification-balance"
        let before = try await admin.send("GET", path, as: AdminWire.Balance.self).balance
        _ = try await atOnce((0..<24).map { $0.isMultiple(of: 2) ? "1.25" : "-0.25" }) { amount in
            try await admin.send("POST", path, body: RawJSON(Data(#"{"amount":"\#(amount)"}"#.utf8)), as: AdminWire.Balance.self)
        }
        let after = try await admin.send("GET", path, as: AdminWire.Balance.self).balance
        // Twelve credits of 1.25 and twelve debits of 0.25: 12.00 more than before.
        #expect(try #require(Decimal(string: after)) - (try #require(Decimal(string: before))) == 12, "\(before) → \(after)")
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentTrialSavesLeaveOneWholeConfiguration(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let path = "tenants/v1/\(live.credentials.tenantId)/trial-config"
        let statuses = try await atOnce(Array(1...12)) { days in
            try await client.call("PATCH", path, ["ios": ["enabled": days.isMultiple(of: 2), "durationDays": days]], token: admin).status
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let ios = try #require(try await client.call("GET", path, token: admin).json["ios"] as? [String: Any])
        // One save's pair, not one save's days with another's switch.
        let days = try #require(ios["durationDays"] as? Int)
        #expect((1...12).contains(days) && ios["enabled"] as? Bool == days.isMultiple(of: 2), "\(ios)")
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentAppleConfigPatchesOfDifferentFieldsAllStay(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let path = "tenants/v1/\(live.credentials.tenantId)/apple-config"
        let patches: [(String, String)] = [("bundleId", "com.example.app"), ("issuerId", "57246542-96fe-1a63-e053-0824d011072a"),
                                           ("keyId", "2X9R4HXF34")]
        for _ in 0..<3 {
            let statuses = try await atOnce(patches) { field, value in try await client.call("PATCH", path, [field: value], token: admin).status }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            let saved = try await client.call("GET", path, token: admin).json
            for (field, value) in patches { #expect(saved[field] as? String == value, "\(field) lost: \(saved)") }
            _ = try await client.call("PATCH", path, ["bundleId": "reset", "issuerId": "reset", "keyId": "reset"], token: admin)
        }
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentWorkflowSettingsPatchesOfDifferentFieldsAllStay(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let admin = live.admin
        let path = "/admin/v1/tenants/\(live.credentials.tenantId)/workflow-settings"
        for round in 1...3 {
            let patches = [#"{"maxConcurrentRuns":\#(round + 4)}"#, #"{"openaiModel":"model-\#(round)"}"#,
                           #"{"workerUrl":"https://worker.example/\#(round)"}"#]
            _ = try await atOnce(patches) { patch in
                try await admin.send("PATCH", path, body: RawJSON(Data(patch.utf8)), as: AdminWire.WorkflowSettings.self)
            }
            let saved = try await admin.send("GET", path, as: AdminWire.WorkflowSettings.self)
            #expect(saved.maxConcurrentRuns == round + 4 && saved.openaiModel == "model-\(round)"
                    && saved.workerUrl == "https://worker.example/\(round)", "round \(round): \(saved)")
        }
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentPricingReplacementsLeaveOneWholeSet(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let path = "tenants/v1/\(live.credentials.tenantId)/pricing-config"
        // Each replacement lists a shared product and two of its own.
        let statuses = try await atOnce(Array(0..<8)) { set in
            let packages = ["shared", "own-\(set)-a", "own-\(set)-b"].map { ["platformProductId": "com.example.credits.\($0)", "credits": set + 1] }
            return try await client.call("PUT", path, ["iapCreditPackages": packages], token: admin).status
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let packages = try #require(try await client.call("GET", path, token: admin).json["iapCreditPackages"] as? [[String: Any]])
        let credits = Set(packages.compactMap { $0["credits"] as? Int })
        #expect(packages.count == 3 && credits.count == 1, "a mix of replacements: \(packages)")
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentGooglePlayConfigPatchesOfDifferentFieldsAllStay(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let path = "tenants/v1/\(live.credentials.tenantId)/google-play-config"
        let file = try GoogleServiceAccountKeyFile.generate()
        let patches: [(String, String)] = [
            ("packageName", "com.example.gatehouse"), ("pushAudience", "https://gatehouse.example/webhooks/google-play"),
            ("pushServiceAccountEmail", "pubsub-push@gatehouse-test.iam.gserviceaccount.com"), ("serviceAccountKey", file.json),
        ]
        // The first round races to make the row as well.
        for _ in 0..<3 {
            let statuses = try await atOnce(patches) { field, value in try await client.call("PATCH", path, [field: value], token: admin).status }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            let saved = try await client.call("GET", path, token: admin).json
            for (field, value) in patches.dropLast() { #expect(saved[field] as? String == value, "\(field) lost: \(saved)") }
            #expect(saved["clientEmail"] as? String == file.clientEmail, "the key lost: \(saved)")
            _ = try await client.call("PATCH", path, ["packageName": "com.example.reset", "pushAudience": NSNull(), "pushServiceAccountEmail": NSNull()], token: admin)
        }
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aGoogleSubscriptionClaimedByTwelvePlansAtOnceLandsOnce(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let base = "tenants/v1/\(live.credentials.tenantId)/service-entitlement-products"
        let statuses = try await atOnce(Array(0..<12)) { index in
            try await client.call(
                "POST", base,
                ["displayName": "Plan \(index)", "interval": "monthly",
                 "platformProductIds": ["apple": "com.example.app.monthly\(index)", "google": "pro:monthly"]],
                token: admin).status
        }
        #expect(statuses.filter { $0 == 201 }.count == 1 && statuses.filter { $0 == 409 }.count == 11, "\(statuses)")
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func concurrentReplacementsOfBothProvidersLeaveEachWhole(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let path = "tenants/v1/\(live.credentials.tenantId)/pricing-config"
        let statuses = try await atOnce(Array(0..<8)) { set in
            let provider = set.isMultiple(of: 2) ? "apple" : "google"
            let packages = ["shared", "own-\(set)"].map { ["platformProductId": "credits.\($0)", "credits": set + 1] }
            return try await client.call("PUT", path, ["provider": provider, "iapCreditPackages": packages], token: admin).status
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        for (provider, query) in [("apple", ""), ("google", "?provider=google")] {
            let packages = try #require(try await client.call("GET", path + query, token: admin).json["iapCreditPackages"] as? [[String: Any]])
            let credits = Set(packages.compactMap { $0["credits"] as? Int })
            #expect(packages.count == 2 && credits.count == 1, "\(provider): \(packages)")
            #expect(credits.allSatisfy { ($0 - 1).isMultiple(of: 2) == (provider == "apple") }, "\(provider) holds the other's: \(packages)")
        }
        await live.stop()
    }

    /// Sends one call per item, all at once, and returns their answers (in any order).
    private func atOnce<Item: Sendable, Answer: Sendable>(
        _ items: [Item], _ call: @escaping @Sendable (Item) async throws -> Answer
    ) async throws -> [Answer] {
        try await withThrowingTaskGroup(of: Answer.self) { group in
            for item in items { group.addTask { try await call(item) } }
            return try await group.reduce(into: [Answer]()) { $0.append($1) }
        }
    }
}
