import Foundation
import GatehouseCore
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /webhooks/google-play` on the live server: Pub/Sub pushes with tokens google-auth
/// mints against the stand-in's certificate endpoint. A genuine push is applied once; every
/// forgery is a bare 401 that records nothing.
@Suite struct GooglePlayWebhookTests {
    static let audience = "https://gatehouse.example/webhooks/google-play"
    static let email = "pubsub-push@gatehouse-test.iam.gserviceaccount.com"

    struct Push {
        let f: GooglePlayVerifyTests.Fixture

        /// Posts a push of `notification` (its JSON) as message `id` with `bearer`.
        func send(_ notification: [String: Any], id: String, bearer: String?) async throws -> (status: Int, json: [String: Any]) {
            let data = try JSONSerialization.data(withJSONObject: notification).base64EncodedString()
            return try await send(raw: try JSONSerialization.data(withJSONObject: [
                "message": ["data": data, "messageId": id, "message_id": id, "publishTime": "2026-12-06T10:00:00.000Z"],
                "subscription": "projects/gatehouse-test/subscriptions/play",
            ]), bearer: bearer)
        }

        func send(raw body: Data, bearer: String?) async throws -> (status: Int, json: [String: Any]) {
            var request = URLRequest(url: f.store.live.baseURL.appendingPathComponent("webhooks/google-play"))
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            if let bearer { request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization") }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as! HTTPURLResponse).statusCode, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
        }

        /// A push token issued at the server's (manual) clock, which a slow run leaves behind real time.
        func token(_ claims: [String: Any] = [:]) async throws -> String {
            let now = Int(f.store.clock.now.timeIntervalSince1970)
            return try await f.google.pushToken(
                audience: GooglePlayWebhookTests.audience, email: GooglePlayWebhookTests.email,
                claims: ["iat": now, "exp": now + 3600].merging(claims) { $1 })
        }

        func recorded() async throws -> Int {
            try await f.store.live.app.environment.database.read { db in
                try db.queryOne("SELECT COUNT(*) AS n FROM commerce_notifications WHERE notification_uuid LIKE 'google:%'")!.get("n", as: Int.self)
            }
        }
    }

    static func subscriptionNotification(_ token: String, type: Int, package: String = GooglePlayVerifyTests.package) -> [String: Any] {
        ["version": "1.0", "packageName": package, "eventTimeMillis": "1764928800000",
         "subscriptionNotification": ["version": "1.0", "notificationType": type, "purchaseToken": token, "subscriptionId": "pro"]]
    }

    static func start(_ kind: TestDatabaseKind) async throws -> Push {
        let f = try await GooglePlayVerifyTests.start(kind)
        let patched = try await f.store.client.call(
            "PATCH", "tenants/v1/\(f.store.live.credentials.tenantId)/google-play-config",
            ["pushAudience": audience, "pushServiceAccountEmail": email], token: f.store.live.credentials.adminToken)
        #expect(patched.status == 200, "\(patched.json)")
        return Push(f: f)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aGenuinePushIsAppliedOnceAndForgeriesRecordNothing(_ kind: TestDatabaseKind) async throws {
        let push = try await Self.start(kind)
        let f = push.f
        // A purchase made on another device, tagged with the account: granted from the push alone.
        _ = try await f.auth("+14165550194")
        let accountID = try await f.store.live.app.environment.database.read { db in
            try db.queryOne("SELECT id FROM accounts WHERE phone = ?", "14165550194")!.get("id", as: String.self)
        }
        let expiry = ISO8601DateFormatter().string(from: f.store.clock.now.addingTimeInterval(30 * 86_400))
        try await f.google.add(package: GooglePlayVerifyTests.package, subscriptions: ["pushed-token": [
            "kind": "androidpublisher#subscriptionPurchaseV2", "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE",
            "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING", "externalAccountIdentifiers": ["obfuscatedExternalAccountId": accountID],
            "lineItems": [["productId": "pro", "expiryTime": expiry, "autoRenewingPlan": ["autoRenewEnabled": true]]],
        ]])
        let purchased = Self.subscriptionNotification("pushed-token", type: 4)
        let genuine = try await push.token()

        // Forgeries first: each a bare 401, nothing recorded, Google never asked.
        let header = try JWTForgery.json(genuine, part: 0)
        var tampered = try JWTForgery.json(genuine, part: 1)
        tampered["aud"] = "https://gatehouse.example/elsewhere"
        let publicPEM = try #require(try await f.google.certificates()[header["kid"] as? String ?? ""])
        let forgeries: [(String, String?)] = [
            ("no token", nil),
            ("wrong aud", try await push.token(["aud": "https://elsewhere.example/push"])),
            ("wrong iss", try await push.token(["iss": "https://accounts.example.com"])),
            ("wrong email", try await push.token(["email": "someone@gatehouse-test.iam.gserviceaccount.com"])),
            ("unverified email", try await push.token(["email_verified": false])),
            ("expired", try await push.token(["iat": Int(f.store.clock.now.timeIntervalSince1970) - 7200, "exp": Int(f.store.clock.now.timeIntervalSince1970) - 3600])),
            ("alg none", try JWTForgery.replacing(genuine, header: ["alg": "none", "kid": header["kid"] as Any], signature: "")),
            ("HS256 keyed with the public key", try JWTForgery.hs256(genuine, keyedWith: publicPEM)),
            ("unknown kid", try JWTForgery.replacing(genuine, header: ["alg": "RS256", "kid": "0123456789abcdef", "typ": "JWT"])),
            ("tampered payload", try JWTForgery.replacing(genuine, payload: tampered)),
        ]
        for (name, bearer) in forgeries {
            let refused = try await push.send(purchased, id: "forged-" + name, bearer: bearer)
            #expect(refused.status == 401 && refused.json.isEmpty, "\(name): \(refused)")
        }
        #expect(try await push.recorded() == 0)
        #expect(try await f.google.log().filter { $0.path.contains("subscriptionsv2") }.isEmpty)

        let applied = try await push.send(purchased, id: "1001", bearer: genuine)
        #expect(applied.status == 200 && applied.json["outcome"] as? String == "applied", "\(applied)")
        let again = try await push.send(purchased, id: "1001", bearer: genuine)
        #expect(again.status == 200 && again.json["outcome"] as? String == "duplicate")
        #expect(try await push.recorded() == 1)
        let entitlement = try await f.store.live.app.environment.database.read { db in
            try db.queryOne("SELECT account_id, store FROM commerce_subscriptions WHERE google_token_hash IS NOT NULL")
        }
        #expect(try entitlement?.get("account_id", as: String.self) == accountID && entitlement?.get("store", as: String.self) == "google")
        #expect(try await f.google.log().compactMap(\.verb) == ["acknowledge"])

        // A package no tenant has: taken when Google signed it, or Pub/Sub would deliver it forever; a forgery is still a 401.
        let stranger = try await push.send(Self.subscriptionNotification("x", type: 4, package: "com.example.stranger"), id: "1002", bearer: genuine)
        #expect(stranger.status == 200 && stranger.json["outcome"] as? String == "ignored")
        let probe = try await push.send(
            Self.subscriptionNotification("x", type: 4, package: "com.example.stranger"), id: "1002", bearer: forgeries.last?.1 ?? "forged")
        #expect(probe.status == 401)
        // A kind this server does not act on (one Google added later): recorded, not refused.
        let newer = try await push.send(["version": "1.0", "packageName": GooglePlayVerifyTests.package, "eventTimeMillis": "1764928800000",
                                         "pendingRefundReviewNotification": ["purchaseToken": "pushed-token"]], id: "1004", bearer: genuine)
        #expect(newer.status == 200 && newer.json["outcome"] as? String == "recorded", "\(newer)")
        // A test notification from Play Console: recorded.
        let test = try await push.send(["version": "1.0", "packageName": GooglePlayVerifyTests.package, "eventTimeMillis": 1764928800000,
                                        "testNotification": ["version": "1.0"]], id: "1003", bearer: genuine)
        #expect(test.status == 200 && test.json["outcome"] as? String == "recorded")
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func malformedPushesAndAnUnreachableGoogle(_ kind: TestDatabaseKind) async throws {
        let push = try await Self.start(kind)
        let f = push.f
        let genuine = try await push.token()
        let bodies: [Data] = [
            Data("{".utf8), Data("[]".utf8), Data(#"{"message": {"data": "not base64!", "messageId": "1"}}"#.utf8),
            Data(#"{"message": {"data": "e30=", "messageId": "1"}}"#.utf8),  // {} has no package
            Data(#"{"message": {"data": "eyJwYWNrYWdlTmFtZSI6ImNvbS5leGFtcGxlLmFwcCJ9"}}"#.utf8),  // no messageId
            Data((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8),
        ]
        for body in bodies {
            let answer = try await push.send(raw: body, bearer: genuine)
            #expect(answer.status == 400 || answer.status == 413, "\(answer)")
            #expect(answer.status == 413 || (answer.json["error"] as? [String: Any])?["code"] != nil, "\(answer)")
        }
        // Google down: a 503, nothing recorded, so Pub/Sub's redelivery is applied later.
        try await f.google.failAPI(with: 503)
        let down = try await push.send(Self.subscriptionNotification("sub-token-1", type: 2), id: "2001", bearer: genuine)
        #expect(down.status == 503, "\(down)")
        #expect(try await push.recorded() == 0)
        try await f.google.failAPI(with: nil)
        let redelivered = try await push.send(Self.subscriptionNotification("sub-token-1", type: 2), id: "2001", bearer: genuine)
        #expect(redelivered.status == 200 && redelivered.json["outcome"] as? String == "applied", "\(redelivered)")
        await f.stop()
    }
}
