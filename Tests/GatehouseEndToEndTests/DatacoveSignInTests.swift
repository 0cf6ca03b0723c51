import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseCrypto
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Datacove sign-in dialect over the wire: OTP by phone and email, tokens, sessions,
/// profile, deletion, and the error envelope.
struct DatacoveClient {
    let base: String
    let apiKey: String
    /// The server's socket, or the server itself when it answers in process.
    var transport: any Transport = URLSessionTransport()

    init(_ live: LiveServer, platform: String = "IOS") {
        base = live.credentials.baseURL + "/api/"
        apiKey = live.credentials.apiKeys?[platform] ?? ""
        transport = live.transport
    }

    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, key: Bool = false, token: String? = nil,
              headers: [String: String] = [:]) async throws -> (status: Int, json: [String: Any], headers: [String: String]) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if key { request.setValue(apiKey, forHTTPHeaderField: "x-api-key") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await transport.send(request)
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return (response.statusCode, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:], fields)
    }

    /// Requests a code, reads it from the outbox, verifies it: a token pair.
    func signIn(_ live: LiveServer, phone: String? = nil, email: String? = nil, device: String = "iPhone") async throws -> [String: Any] {
        let path = phone != nil ? "auth/v1/mobile/" : "auth/v1/email/"
        var body: [String: Any] = phone.map { ["phoneNumber": $0, "channel": "sms"] } ?? ["email": email!]
        let recipient = phone.map { $0.filter(\.isNumber) } ?? email!
        let before = try await outboxMessages(live, recipient).count
        let requested = try await call("POST", path + "request-otp", body, key: true)
        #expect(requested.status == 200)
        body["otp"] = try await outboxCode(live, recipient, after: before)
        let verified = try await call("POST", path + "verify-otp", body, key: true, headers: ["X-Device-Name": device, "X-App-Version": "2.1.0"])
        #expect(verified.status == 200, "\(verified.json)")
        return verified.json
    }

    func outboxMessages(_ live: LiveServer, _ recipient: String) async throws -> [AdminWire.OutboxMessage] {
        let encoded = recipient.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try await live.admin.call(AdminWire.Endpoints.readOutbox, query: "to=\(encoded)").data
    }

    /// The code of the first message to `recipient` beyond the `after` already there, once
    /// the server's dispatcher has delivered everything queued.
    func outboxCode(_ live: LiveServer, _ recipient: String, after: Int = 0) async throws -> String {
        try await live.app.deliveries.drain()
        let messages = try await outboxMessages(live, recipient)
        guard messages.count > after, let match = messages[0].body.range(of: #"\d{6}"#, options: .regularExpression) else {
            throw TestSetupError("no new code for \(recipient)")
        }
        return String(messages[0].body[match])
    }
}

func claims(_ token: Any?) throws -> [String: Any] {
    try CompactJWS(compact: try #require(token as? String)).claims()
}

@Suite struct DatacoveSignInTests {
    @Test(arguments: TestDatabaseKind.available)
    func phoneSignInActivateAndProfile(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let pair = try await client.signIn(live, phone: "+1 416 555 0199")
        #expect(Set(pair.keys) == ["accessToken", "refreshToken", "expiresIn"])
        #expect(pair["expiresIn"] as? Int == 1800)
        #expect(try claims(pair["accessToken"])["status"] as? String == "CREATED")
        let access = pair["accessToken"] as! String
        let activated = try await client.call("POST", "auth/v1/activate", token: access)
        #expect(activated.status == 200)
        #expect(try claims(activated.json["accessToken"])["status"] as? String == "ACTIVE")
        let again = try await client.call("POST", "auth/v1/activate", token: activated.json["accessToken"] as? String)
        #expect(again.status == 200)
        let token = again.json["accessToken"] as! String

        let profile = try await client.call("GET", "users/v1/profile", token: token)
        #expect(profile.status == 200)
        #expect(Set(profile.json.keys) == ["name", "phone", "email", "country", "timezone", "status", "wallet"])
        #expect(profile.json["phone"] as? String == "14165550199")
        #expect(profile.json["country"] as? String == "CA")
        #expect(profile.json["status"] as? String == "ACTIVE")
        #expect(profile.json["wallet"] as? [String: Int] == ["WALLET": 0, "TRIAL": 0, "SUBSCRIPTION": 0])
        let patched = try await client.call("PATCH", "users/v1/profile", ["name": "Jane Doe", "timezone": "America/Toronto"], token: token)
        #expect(patched.json["name"] as? String == "Jane Doe" && patched.json["timezone"] as? String == "America/Toronto")
        let bad = try await client.call("PATCH", "users/v1/profile", ["timezone": "Mars/Olympus"], token: token)
        #expect(bad.status == 400)
        let envelope = try #require(bad.json["error"] as? [String: Any])
        #expect(Set(bad.json.keys) == ["statusCode", "timestamp", "path", "error"])
        #expect(bad.json["statusCode"] as? Int == 400 && bad.json["path"] as? String == "/api/users/v1/profile")
        #expect(envelope["statusCode"] as? Int == 400 && envelope["error"] as? String == "Bad Request")
        #expect(envelope["code"] as? String == "VALIDATION_FAILED")
        await live.stop()
    }

    @Test func emailSignInQuickResendWrongCodesAndKeys() async throws {
        // A small body limit: a body that fits in one write is read before the 413 comes back.
        let live = try await LiveServer.start { $0.maxBodyBytes = 4096 }
        let client = DatacoveClient(live, platform: "WEB")
        _ = try await client.signIn(live, email: "Jane@Example.com ".lowercased().trimmingCharacters(in: .whitespaces))
        let quick = try await client.call("POST", "auth/v1/email/request-otp", ["email": "jane@example.com"], key: true)
        #expect(quick.status == 429)
        #expect((quick.json["error"] as? [String: Any])?["code"] as? String == "RATE_LIMITED")
        #expect((Int(quick.headers["retry-after"] ?? "") ?? 0) > 0)
        let wrong = try await client.call("POST", "auth/v1/email/verify-otp", ["email": "jane@example.com", "otp": "000000"], key: true)
        #expect(wrong.status == 400 && (wrong.json["error"] as? [String: Any])?["code"] as? String == "OTP_INVALID")
        let noKey = try await client.call("POST", "auth/v1/email/request-otp", ["email": "x@example.com"])
        #expect(noKey.status == 401 && (noKey.json["error"] as? [String: Any])?["code"] as? String == "API_KEY_INVALID")
        // Router and transport errors keep the dialect's envelope.
        let unknown = try await client.call("GET", "auth/v1/nothing-here")
        #expect(unknown.status == 404 && (unknown.json["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
        #expect(unknown.json["path"] as? String == "/api/auth/v1/nothing-here")
        let huge = try await client.call("POST", "auth/v1/email/request-otp", ["email": String(repeating: "x", count: 5000)], key: true)
        #expect(huge.status == 413 && (huge.json["error"] as? [String: Any])?["code"] as? String == "PAYLOAD_TOO_LARGE")
        // The operator's general API key is not a sign-in key.
        var plain = client
        plain = DatacoveClient(base: plain.base, apiKey: live.credentials.apiKey)
        #expect(try await plain.call("POST", "auth/v1/email/request-otp", ["email": "x@example.com"], key: true).status == 401)
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func codesExpireAndWrongCodesRunOut(_ kind: TestDatabaseKind) async throws {
        // Wrong codes are counted per clock hour: start on the hour so the test's 12 minutes
        // never cross into the next one.
        let clock = ManualClock(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600 + 3600))
        let live = try await LiveServer.start(kind, clock: clock, inProcess: true)
        let client = DatacoveClient(live)
        func code(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> String? {
            (reply.json["error"] as? [String: Any])?["code"] as? String
        }
        let phone: [String: Any] = ["phoneNumber": "+14165550123", "channel": "sms"]
        _ = try await client.call("POST", "auth/v1/mobile/request-otp", phone, key: true)
        var body = phone
        body["otp"] = try await client.outboxCode(live, "14165550123")
        clock.advance(by: 601)
        let expired = try await client.call("POST", "auth/v1/mobile/verify-otp", body, key: true)
        #expect(expired.status == 400 && code(expired) == "OTP_EXPIRED")

        // Five wrong tries burn a code; the account-wide counter outlives new codes.
        _ = try await client.call("POST", "auth/v1/mobile/request-otp", phone, key: true)
        let fresh = try await client.outboxCode(live, "14165550123", after: 1)
        body["otp"] = fresh == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            #expect(code(try await client.call("POST", "auth/v1/mobile/verify-otp", body, key: true)) == "OTP_INVALID")
        }
        body["otp"] = fresh
        let burned = try await client.call("POST", "auth/v1/mobile/verify-otp", body, key: true)
        #expect(burned.status == 429 && code(burned) == "OTP_TOO_MANY_ATTEMPTS")
        for round in 0..<2 {
            clock.advance(by: 61)
            _ = try await client.call("POST", "auth/v1/mobile/request-otp", phone, key: true)
            let next = try await client.outboxCode(live, "14165550123", after: 2 + round)
            body["otp"] = next == "000000" ? "111111" : "000000"
            for _ in 0..<(round == 0 ? 4 : 1) { _ = try await client.call("POST", "auth/v1/mobile/verify-otp", body, key: true) }
            body["otp"] = next
        }
        // Ten wrong codes in the hour: even the right code is refused now.
        let locked = try await client.call("POST", "auth/v1/mobile/verify-otp", body, key: true)
        #expect(locked.status == 429 && code(locked) == "OTP_TOO_MANY_ATTEMPTS")
        #expect((Int(locked.headers["retry-after"] ?? "") ?? 0) > 0)
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func refreshRotationEvictionSignOutAndDeletion(_ kind: TestDatabaseKind) async throws {
        let clock = ManualClock(Date())
        let live = try await LiveServer.start(kind, clock: clock, inProcess: true)
        let client = DatacoveClient(live)
        var devices: [[String: Any]] = []
        for index in 0..<6 {
            devices.append(try await client.signIn(live, phone: "+14165550100", device: "device \(index)"))
            // The next code for the number needs the resend window to pass.
            clock.advance(by: 61)
        }
        let evicted = try await client.call("POST", "auth/v1/refresh", ["refreshToken": devices[0]["refreshToken"]!])
        #expect(evicted.status == 401 && (evicted.json["error"] as? [String: Any])?["code"] as? String == "SESSION_EVICTED")

        // Two refreshes with one token: the same new pair.
        let first = try await client.call("POST", "auth/v1/refresh", ["refreshToken": devices[1]["refreshToken"]!])
        let second = try await client.call("POST", "auth/v1/refresh", ["refreshToken": devices[1]["refreshToken"]!])
        #expect(first.status == 200 && first.json as NSDictionary == second.json as NSDictionary)

        let token = devices[5]["accessToken"] as! String
        let sessions = try await client.call("GET", "auth/v1/sessions", token: token)
        let list = try #require(sessions.json["data"] as? [[String: Any]])
        #expect(list.count == 5)
        #expect(list.filter { $0["current"] as? Bool == true }.count == 1)
        #expect(Set(list[0].keys) == ["id", "deviceName", "platform", "appVersion", "createdAt", "lastUsedAt", "current"])
        let other = try #require(list.first { $0["deviceName"] as? String == "device 2" }?["id"] as? String)
        #expect(try await client.call("DELETE", "auth/v1/sessions/\(other)", token: token).status == 204)
        let gone = try await client.call("GET", "users/v1/profile", token: devices[2]["accessToken"] as? String)
        #expect(gone.status == 401 && (gone.json["error"] as? [String: Any])?["code"] as? String == "SESSION_NOT_FOUND")

        #expect(try await client.call("DELETE", "users/v1/account", token: token).status == 204)
        let deleted = try await client.call("GET", "users/v1/profile", token: devices[3]["accessToken"] as? String)
        #expect(deleted.status == 401 && (deleted.json["error"] as? [String: Any])?["code"] as? String == "ACCOUNT_DELETED")
        clock.advance(by: 61)
        let fresh = try await client.signIn(live, phone: "+14165550100")
        let profile = try await client.call("GET", "users/v1/profile", token: fresh["accessToken"] as? String)
        #expect(profile.json["status"] as? String == "CREATED" && profile.json["name"] is NSNull)
        await live.stop()
    }

}

extension DatacoveClient {
    init(base: String, apiKey: String) {
        self.base = base
        self.apiKey = apiKey
    }
}
