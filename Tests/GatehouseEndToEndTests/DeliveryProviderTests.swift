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
            // Hostile receipts are refused before anything is read from them; duplicates of a signed one all pass.
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
            #expect(metrics.contains(#"gatehouse_delivery_receipts_total{provider="twilio",status="delivered"} 9"#))

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
}
