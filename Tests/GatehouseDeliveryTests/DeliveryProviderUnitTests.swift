import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseCrypto
import GatehouseTesting
import Testing
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The additive delivery API and the adapters' small rules, over a scripted transport.
@Suite struct DeliveryProviderUnitTests {
    /// Answers each request with the next canned answer and keeps the requests.
    final class ScriptedHTTP: OutboundHTTP, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [(Int, [String: String], String)]
        private(set) var requests: [OutboundRequest] = []

        init(_ answers: [(Int, [String: String], String)]) { self.answers = answers }

        func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse) {
            let (status, headers, body) = try lock.withLock { () throws -> (Int, [String: String], String) in
                requests.append(request)
                guard !answers.isEmpty else { throw OutboundError(.connectionRefused) }
                return answers.removeFirst()
            }
            return (Data(body.utf8), OutboundResponse(statusCode: status, headerFields: headers.map { ($0.key, $0.value) }))
        }

        func form(_ index: Int) -> [String: String] {
            let body = String(decoding: lock.withLock { requests[index].httpBody ?? Data() }, as: UTF8.self)
            var fields: [String: String] = [:]
            for pair in body.split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                fields[halves[0]] = halves.count > 1 ? halves[1] : ""
            }
            return fields
        }
    }

    static let created = (201, [String: String](), #"{"sid":"SM00000000000000000000000000000001"}"#)

    @Test func existingConformersGetAnEmptyReceiptAndOldMessagesStillDecode() async throws {
        struct DeliverOnly: MessageDelivery {
            func deliver(_ message: OutboundMessage) async throws {}
        }
        let receipt = try await DeliverOnly().send(DeliveryFixtures.message())
        #expect(receipt == DeliveryReceipt(provider: nil, messageId: nil))
        let old = OutboundMessage(id: "m", tenantId: "t", channel: .sms, to: "1", body: "b", createdAt: Date(timeIntervalSince1970: 0))
        #expect(old.language == nil)
        let encoded = try JSONEncoder().encode(old)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("language"))
        #expect(try JSONDecoder().decode(OutboundMessage.self, from: encoded) == old)
        #expect(DeliveryError("refused").isRetryable == false)
        #expect(DeliveryError("later", retryable: true).isRetryable)
    }

    @Test func retryAfterAsAnHTTPDateIsReadAgainstTheClockAndCapped() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_767_225_600))  // Thu, 01 Jan 2026 00:00:00 GMT
        let http = ScriptedHTTP([
            (429, ["Retry-After": "Thu, 01 Jan 2026 00:00:05 GMT"], "{}"), (503, ["Retry-After": "3600"], "{}"), Self.created,
        ])
        let sleeps = RecordedSleeps()
        let delivery = TwilioSMSDelivery(
            account: TwilioAccount(accountSid: "AC1", authToken: "token"), sender: .from("+15005550006"), http: http, clock: clock,
            retry: sleeps.policy(maximumBackoff: 30))
        _ = try await delivery.send(DeliveryFixtures.message())
        #expect(sleeps.delays == [5, 30])
        #expect(http.requests.allSatisfy { $0.timeoutInterval == 10 })
        #expect(http.requests.first?.url.absoluteString == "https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json")
    }

    @Test func aMalformedLanguageFallsBackToEnglishAndAVoiceNameIsEscaped() async throws {
        let http = ScriptedHTTP([Self.created, Self.created])
        let voice = TwilioVoiceDelivery(
            account: TwilioAccount(accountSid: "AC1", authToken: "token"), from: "+15005550006", voice: "Polly.Vicki\"", http: http,
            clock: ManualClock())
        _ = try await voice.send(DeliveryFixtures.message(.voice, body: "1 2\u{07} 3", language: #"en"><Play>x</Play><Say a=""#))
        _ = try await voice.send(DeliveryFixtures.message(.voice, body: "1 2 3", language: "pt-BR"))
        let say = #"<Say language="en-US" voice="Polly.Vicki&quot;">1 2  3</Say>"#
        #expect(http.form(0)["Twiml"] == "<Response>\(say)<Pause length=\"1\"/>\(say)</Response>")
        #expect(http.form(1)["Twiml"]?.contains(#"<Say language="pt-BR" voice="Polly.Vicki&quot;">1 2 3</Say>"#) == true)
    }

    @Test func vonageTokensCarryTheClocksTimesAndAFreshId() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_767_225_600))
        let http = ScriptedHTTP([(201, [:], #"{"uuid":"63f61863-4a51-4f6b-86e1-46edebcf9356"}"#), (201, [:], #"{"uuid":"u2"}"#)])
        let voice = try VonageVoiceDelivery(
            applicationId: "app-1", privateKeyPEM: try DeliveryVonageTests.generatedRSAKeyPEM().replacingOccurrences(of: "\n", with: "\\n"),
            from: "15005550006", http: http, clock: clock, random: SeededRandom(seed: 7))
        let receipt = try await voice.send(DeliveryFixtures.message(.voice))
        #expect(receipt == DeliveryReceipt(provider: "vonage", messageId: "63f61863-4a51-4f6b-86e1-46edebcf9356"))
        _ = try await voice.send(DeliveryFixtures.message(.voice))
        struct Claims: Decodable, Equatable {
            let application_id: String
            let iat: Int
            let exp: Int
            let jti: String
        }
        let claims = try http.requests.map { request in
            let header = try #require(request.value(forHTTPHeaderField: "Authorization"))
            let jws = try CompactJWS(compact: String(header.dropFirst("Bearer ".count)))
            #expect(jws.header.alg == "RS256")
            return try jws.decodePayload(Claims.self)
        }
        #expect(claims.map(\.application_id) == ["app-1", "app-1"])
        #expect(claims.map(\.iat) == [1_767_225_600, 1_767_225_600])
        #expect(claims.map(\.exp) == [1_767_225_900, 1_767_225_900])
        #expect(claims[0].jti != claims[1].jti && UUID(uuidString: claims[0].jti) != nil)
    }

    @Test func smsAndVoiceGoToTheirOwnDelivery() async throws {
        let sms = ScriptedHTTP([Self.created])
        let calls = ScriptedHTTP([(201, [:], #"{"sid":"CA1"}"#)])
        let account = TwilioAccount(accountSid: "AC1", authToken: "token")
        let router = ChannelDelivery(
            sms: TwilioSMSDelivery(account: account, sender: .from("+15005550006"), http: sms, clock: ManualClock()),
            voice: TwilioVoiceDelivery(account: account, from: "+15005550006", http: calls, clock: ManualClock()))
        #expect(try await router.send(DeliveryFixtures.message(.voice)).messageId == "CA1")
        #expect(try await router.send(DeliveryFixtures.message(.sms)).messageId == "SM00000000000000000000000000000001")
        await #expect(throws: DeliveryError.self) { try await router.send(DeliveryFixtures.message(.email)) }
    }

    @Test func twilioErrorBodiesBecomeTheErrorAndA401IsNotRetried() async throws {
        let refusal = #"{"code": 20003, "detail": "Your AccountSid or AuthToken was incorrect.", "message": "Authenticate", "more_info": "https://www.twilio.com/docs/errors/20003", "status": 401}"#
        let http = ScriptedHTTP([(401, ["WWW-Authenticate": #"Basic realm="Twilio API""#], refusal)])
        let sleeps = RecordedSleeps()
        let delivery = TwilioSMSDelivery(
            account: TwilioAccount(accountSid: "AC1", authToken: "token-123456"), sender: .from("+15005550006"), http: http, clock: ManualClock(),
            retry: sleeps.policy())
        let error = await #expect(throws: DeliveryError.self) { try await delivery.send(DeliveryFixtures.message()) }
        #expect(error == DeliveryError("Twilio answered 401, error 20003: Authenticate"))
        #expect(http.requests.count == 1)
        #expect(sleeps.delays.isEmpty)
        #expect(http.requests.first?.value(forHTTPHeaderField: "Authorization") == "Basic " + Base64.encode(Array("AC1:token-123456".utf8)))
    }

    // A transport that never answers is no longer the adapters' to bound: every outbound call
    // carries its own deadline, which libcurl keeps (CurlHTTPClientTests, a silent upstream), and
    // the dispatcher gives a send up below its lease (DeliveryQueueTests).

    @Test func aTransportFailureNamesNoURLOrCredential() async throws {
        let sleeps = RecordedSleeps()
        let delivery = VonageSMSDelivery(
            apiKey: "key", apiSecret: "s3cr3t-value", from: "Gatehouse", http: ScriptedHTTP([]), clock: ManualClock(), retry: sleeps.policy(attempts: 2))
        let error = await #expect(throws: DeliveryError.self) { try await delivery.send(DeliveryFixtures.message()) }
        #expect(error?.description == "Vonage SMS could not be reached: connection refused (after 2 attempts)")
        #expect(error?.isRetryable == true)
        #expect(sleeps.delays == [0.5])
    }
}
