import Foundation
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseVerification
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Codes sent through the providers `delivery-providers` names, against local stand-ins of
/// Twilio's and Vonage's APIs (Tests/Fixtures/provider-apis): the provider's message id kept on
/// the verification, the language passed on, and a refusal moving to the next provider.
@Suite(.serialized) struct DeliveryProviderTests {
    static func harness(_ kind: TestDatabaseKind, apis: ProviderAPIs) async throws -> VerificationHarness {
        try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"]) { settings in
            settings.deliveryProviders = "twilio, vonage"
            settings.twilioAccountSid = ProviderAPIs.twilioAccountSid
            settings.twilioAuthToken = ProviderAPIs.twilioAuthToken
            settings.twilioFrom = "+15005550006"
            settings.twilioApiURL = apis.baseURL
            settings.vonageApiKey = ProviderAPIs.vonageAPIKey
            settings.vonageApiSecret = ProviderAPIs.vonageAPISecret
            settings.vonageFrom = "Gatehouse"
            settings.vonageSmsURL = apis.baseURL
        }
    }

    func stored(_ harness: VerificationHarness, _ destination: String) async throws -> (provider: String?, id: String?) {
        try await harness.live.app.deliveries.drain()
        return try await harness.live.app.environment.database.read { db in
            let row = try db.queryOne("SELECT provider, provider_message_id FROM verifications WHERE destination = ? ORDER BY created_at DESC", destination)
            return (try row?.get("provider"), try row?.get("provider_message_id"))
        }
    }

    /// Posts a provider's callback as it came; the status of the answer.
    func post(_ url: String, _ body: String, _ headers: [String: String]) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return (try await URLSession.shared.data(for: request).1 as! HTTPURLResponse).statusCode
    }

    @Test(arguments: TestDatabaseKind.available)
    func codesGoThroughTwilioAndFailOverToVonage(_ kind: TestDatabaseKind) async throws {
        let apis = try await ProviderAPIs.start()
        let harness = try await Self.harness(kind, apis: apis)
        do {
            let client = harness.sdkClient(.basic)
            _ = try await client.start(destination: "+447400123456", method: .sms)
            let twilio = try await stored(harness, "447400123456")
            let sent = try #require(try await apis.requests(.twilioMessages).last)
            #expect(sent.field("To") == "+447400123456" && sent.field("From") == "+15005550006")
            #expect(sent.field("Body")?.contains(where: \.isNumber) == true)
            #expect(twilio.provider == "twilio" && twilio.id?.hasPrefix("SM") == true, "\(twilio)")

            // Twilio's signed status callback marks it delivered; a tampered one is refused and records nothing.
            let receiptURL = harness.live.baseURL.absoluteString + "/webhooks/delivery/twilio"
            let signed = try await apis.statusCallback(kind: "twilio-message", url: receiptURL, id: try #require(twilio.id), status: "delivered")
            #expect(try await post(receiptURL, signed.body.replacingOccurrences(of: "delivered", with: "undelivered"), signed.headers) == 403)
            #expect(try await post(receiptURL, signed.body, signed.headers) == 204)
            // Hostile receipts are refused before anything is read from them; duplicates of a signed one all pass, counted once.
            for hostile in ["MessageSid=SM\u{0}x&MessageStatus=delivered", String(repeating: "a=b&", count: 3000), "%zz=%00", "MessageSid=" + String(repeating: "9", count: 40)] {
                #expect(try await post(receiptURL, hostile, signed.headers) == 403)
                #expect(try await post(receiptURL, hostile, [:]) == 403)
            }
            let duplicates = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await self.post(receiptURL, signed.body, signed.headers) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(duplicates.allSatisfy { $0 == 204 })
            let status = try await harness.live.app.environment.database.read { db in
                try db.queryOne("SELECT delivery_status FROM verifications WHERE provider_message_id = ?", twilio.id!)?.get("delivery_status", as: String?.self)
            }
            #expect(status == "delivered")
            let metrics = String(decoding: try await URLSession.shared.data(from: harness.live.baseURL.appendingPathComponent("metrics")).0, as: UTF8.self)
            #expect(metrics.contains(#"gatehouse_delivery_receipts_total{provider="twilio",status="delivered"} 1"#))

            // Twilio refuses the number (a 400 is not retried): Vonage takes it.
            try await apis.script(.twilioMessages, [.status(400)])
            _ = try await client.start(destination: "+447400123457", method: .sms)
            let vonage = try await stored(harness, "447400123457")
            #expect(vonage.provider == "vonage" && vonage.id != nil, "\(vonage)")
            let viaVonage = try #require(try await apis.requests(.vonageSMS).last)
            #expect(viaVonage.field("to") == "447400123457" && viaVonage.field("from") == "Gatehouse")

            // A call goes through Twilio Voice, the code spoken in the verification's language.
            _ = try await client.start(destination: "+447400123458", method: .callout, callout: CalloutOptions(languages: ["de-DE"]))
            let call = try await stored(harness, "447400123458")
            let twiml = try #require(try await apis.requests(.twilioCalls).last?.field("Twiml"))
            #expect(call.provider == "twilio" && call.id?.hasPrefix("CA") == true, "\(call)")
            #expect(twiml.contains(#"language="de-DE""#), "\(twiml)")
        } catch { Issue.record(error) }
        await harness.stop()
        await apis.shutdown()
    }

    /// Vonage first, with signed receipts at /webhooks/delivery/vonage (JWT-signed call events
    /// and JSON receipts, `sig`-signed SMS receipts by POST or GET); Twilio behind it through an API key.
    @Test(arguments: TestDatabaseKind.available)
    func vonageReceiptsAreCheckedAndRecorded(_ kind: TestDatabaseKind) async throws {
        let apis = try await ProviderAPIs.start()
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("vonage-\(UUID().uuidString).key")
        try Data(try await apis.vonagePrivateKeyPEM().utf8).write(to: keyFile)
        // The callbacks name the public address, so the server gets a port known beforehand.
        let port = try unusedLoopbackPort()
        let publicURL = "http://127.0.0.1:\(port)"
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"]) { settings in
            settings.port = port
            settings.publicURL = publicURL
            settings.deliveryProviders = "vonage,twilio"
            settings.vonageApiKey = ProviderAPIs.vonageAPIKey
            settings.vonageApiSecret = ProviderAPIs.vonageAPISecret
            settings.vonageFrom = "+15005550006"
            settings.vonageSmsURL = apis.baseURL
            settings.vonageVoiceURL = apis.baseURL
            settings.vonageApplicationId = ProviderAPIs.vonageApplicationId
            settings.vonagePrivateKeyFile = keyFile.path
            settings.vonageSignatureSecret = ProviderAPIs.vonageSignatureSecret
            settings.vonageSignatureMethod = .hmacSHA256
            settings.twilioAccountSid = ProviderAPIs.twilioAccountSid
            settings.twilioApiKeySid = ProviderAPIs.twilioAPIKeySid
            settings.twilioApiKeySecret = ProviderAPIs.twilioAPIKeySecret
            settings.twilioFrom = "+15005550006"
            settings.twilioApiURL = apis.baseURL
        }
        do {
            let client = harness.sdkClient(.basic)
            let receiptURL = harness.live.baseURL.absoluteString + "/webhooks/delivery/vonage"
            func status(_ id: String) async throws -> String? {
                try await harness.live.app.environment.database.read { db in
                    try db.queryOne("SELECT delivery_status FROM verifications WHERE provider_message_id = ?", id)?.get("delivery_status", as: String?.self)
                }
            }

            // An SMS: Vonage is told where its receipt goes; a signed form receipt marks it failed.
            _ = try await client.start(destination: "+447400123460", method: .sms)
            let sms = try await stored(harness, "447400123460")
            let smsID = try #require(sms.id)
            #expect(sms.provider == "vonage")
            #expect(try await apis.requests(.vonageSMS).last?.field("callback") == publicURL + "/webhooks/delivery/vonage")
            let form = try await apis.statusCallback(kind: "vonage-sms-sig", url: receiptURL, id: smsID, status: "failed", extra: ["method": "sha256"])
            #expect(try await post(receiptURL, form.body.replacingOccurrences(of: "failed", with: "delivered"), form.headers) == 403)
            let stale = try await apis.statusCallback(
                kind: "vonage-sms-sig", url: receiptURL, id: smsID, status: "delivered", extra: ["method": "sha256", "timestamp": "1000000000"])
            #expect(try await post(receiptURL, stale.body, stale.headers) == 403)
            let wrongSecret = try await apis.statusCallback(
                kind: "vonage-sms-sig", url: receiptURL, id: smsID, status: "delivered", extra: ["method": "sha256", "secret": "other"])
            #expect(try await post(receiptURL, wrongSecret.body, wrongSecret.headers) == 403)
            #expect(try await status(smsID) == nil)
            #expect(try await post(receiptURL, form.body, form.headers) == 204)
            #expect(try await status(smsID) == "failed")

            // The same receipt by GET, as Vonage sends it by default; a buffered one changes nothing.
            _ = try await client.start(destination: "+447400123461", method: .sms)
            let second = try #require(try await stored(harness, "447400123461").id)
            let buffered = try await apis.statusCallback(kind: "vonage-sms-sig", url: receiptURL, id: second, status: "buffered", extra: ["method": "sha256"])
            let (_, bufferedAnswer) = try await URLSession.shared.data(from: URL(string: receiptURL + "?" + buffered.body)!)
            #expect((bufferedAnswer as! HTTPURLResponse).statusCode == 204)
            #expect(try await status(second) == nil)
            let delivered = try await apis.statusCallback(kind: "vonage-sms-sig", url: receiptURL, id: second, status: "delivered", extra: ["method": "sha256"])
            let (_, deliveredAnswer) = try await URLSession.shared.data(from: URL(string: receiptURL + "?" + delivered.body)!)
            #expect((deliveredAnswer as! HTTPURLResponse).statusCode == 204)
            #expect(try await status(second) == "delivered")

            // A JSON receipt signed with a JWT; its body tampered after signing is refused.
            _ = try await client.start(destination: "+447400123462", method: .sms)
            let third = try #require(try await stored(harness, "447400123462").id)
            let json = try await apis.statusCallback(kind: "vonage-sms-jwt", url: receiptURL, id: third, status: "delivered")
            #expect(try await post(receiptURL, json.body.replacingOccurrences(of: "delivered", with: "rejected"), json.headers) == 403)
            #expect(try await post(receiptURL, json.body, json.headers) == 204)
            #expect(try await status(third) == "delivered")

            // A call: its events come to the same route, signed; the call's end is its receipt.
            _ = try await client.start(destination: "+447400123463", method: .callout)
            let call = try await stored(harness, "447400123463")
            let callID = try #require(call.id)
            #expect(call.provider == "vonage")
            let event = try #require(try await apis.requests(.vonageCalls).last?.jsonText)
            #expect(event.contains(#""event_url": [""# + publicURL + #"/webhooks/delivery/vonage"]"#), "\(event)")
            let ringing = try await apis.statusCallback(kind: "vonage-call", url: receiptURL, id: callID, status: "ringing")
            #expect(try await post(receiptURL, ringing.body, ringing.headers) == 204)
            #expect(try await status(callID) == nil)
            let unanswered = try await apis.statusCallback(kind: "vonage-call", url: receiptURL, id: callID, status: "unanswered")
            var unsigned = unanswered.headers
            unsigned["Authorization"] = nil
            #expect(try await post(receiptURL, unanswered.body, unsigned) == 403)
            #expect(try await post(receiptURL, unanswered.body, unanswered.headers) == 204)
            #expect(try await status(callID) == "failed")
            for hostile in ["messageId=x\u{0}&status=delivered&sig=00", String(repeating: "a=b&", count: 3000), "%zz=%00", "{\"uuid\":"] {
                #expect(try await post(receiptURL, hostile, [:]) == 403)
                #expect(try await post(receiptURL, hostile, unanswered.headers) == 403)
            }
            let metrics = String(decoding: try await URLSession.shared.data(from: harness.live.baseURL.appendingPathComponent("metrics")).0, as: UTF8.self)
            #expect(metrics.contains(#"gatehouse_delivery_receipts_total{provider="vonage",status="delivered"} 2"#), "\(metrics)")
            #expect(metrics.contains(#"gatehouse_delivery_receipts_total{provider="vonage",status="failed"} 2"#))

            // Vonage refuses (a 4xx, not retried): Twilio takes it, authenticated with the API key.
            try await apis.script(.vonageSMS, [.status(400)])
            _ = try await client.start(destination: "+447400123464", method: .sms)
            #expect(try await stored(harness, "447400123464").provider == "twilio")
            #expect(try await apis.requests(.twilioMessages).last?.authorization == "basic \(ProviderAPIs.twilioAPIKeySid)")
        } catch { Issue.record(error) }
        await harness.stop()
        await apis.shutdown()
        try? FileManager.default.removeItem(at: keyFile)
    }
}

/// A loopback port nothing listens on now (bound, read, released).
func unusedLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
    return UInt16(bigEndian: address.sin_port)
}
