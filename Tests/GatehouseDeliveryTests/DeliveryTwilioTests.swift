import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseTesting
import Testing

/// The Twilio adapters against `ProviderAPIs`, which checks each request as Twilio's API
/// reference describes it and answers as Twilio does.
@Suite struct DeliveryTwilioTests {
    static let from = "+15005550006"
    static let callback = URL(string: "https://gatehouse.example/api/delivery/twilio/status?tenant=t1")!

    static func sms(_ apis: ProviderAPIs, sleeps: RecordedSleeps, sender: TwilioSMSDelivery.Sender = .from(from),
                    account: TwilioAccount? = nil, timeout: TimeInterval = 10) -> TwilioSMSDelivery {
        TwilioSMSDelivery(
            account: account ?? DeliveryFixtures.twilioAccount(apis), sender: sender, statusCallback: callback,
            http: DeliveryFixtures.http, clock: ManualClock(), timeout: timeout, retry: sleeps.policy())
    }

    @Test func smsIsOneFormPostWithTheDocumentedFieldsAndReturnsTheMessageSid() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let receipt = try await Self.sms(apis, sleeps: RecordedSleeps()).send(DeliveryFixtures.message(body: "Your code: 123 456 & more"))
            let sent = try await apis.requests(.twilioMessages)
            #expect(sent.count == 1)
            let request = try #require(sent.first)
            #expect(request.method == "POST")
            #expect(request.path == "/2010-04-01/Accounts/\(ProviderAPIs.twilioAccountSid)/Messages.json")
            #expect(request.contentType == "application/x-www-form-urlencoded")
            #expect(request.authorization == "basic \(ProviderAPIs.twilioAccountSid)")
            #expect(request.fields.map(\.0) == ["To", "From", "Body", "StatusCallback"])
            #expect(request.field("To") == "+447700900123")
            #expect(request.field("From") == Self.from)
            #expect(request.field("Body") == "Your code: 123 456 & more")
            #expect(request.field("StatusCallback") == Self.callback.absoluteString)
            #expect(request.status == 201)
            let sid = try #require(receipt.messageId)
            #expect(receipt.provider == "twilio")
            #expect(sid.hasPrefix("SM") && sid.count == 34)
            #expect(request.answer?.contains("\"sid\": \"\(sid)\"") == true)
        }
    }

    @Test func apiKeyAndMessagingServiceAreAccepted() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let account = TwilioAccount(
                accountSid: ProviderAPIs.twilioAccountSid, apiKeySid: ProviderAPIs.twilioAPIKeySid, apiKeySecret: ProviderAPIs.twilioAPIKeySecret,
                baseURL: apis.baseURL)
            let service = "MG" + String(repeating: "ab", count: 16)
            let receipt = try await Self.sms(apis, sleeps: RecordedSleeps(), sender: .messagingService(sid: service), account: account)
                .send(DeliveryFixtures.message())
            let request = try #require(try await apis.requests(.twilioMessages).first)
            #expect(request.authorization == "basic \(ProviderAPIs.twilioAPIKeySid)")
            #expect(request.fields.map(\.0) == ["To", "MessagingServiceSid", "Body", "StatusCallback"])
            #expect(request.field("MessagingServiceSid") == service)
            #expect(receipt.messageId?.hasPrefix("SM") == true)
        }
    }

    @Test func voiceCallReadsTheCodeTwiceInTheMessagesLanguage() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let voice = TwilioVoiceDelivery(
                account: DeliveryFixtures.twilioAccount(apis), from: Self.from, statusCallback: Self.callback, http: DeliveryFixtures.http,
                clock: ManualClock(), retry: RecordedSleeps().policy())
            let body = "Ihr Code lautet 1 2 3 4 5 6 <Play>&"
            let receipt = try await voice.send(DeliveryFixtures.message(.voice, body: body, language: "de-DE"))
            let request = try #require(try await apis.requests(.twilioCalls).first)
            #expect(request.path == "/2010-04-01/Accounts/\(ProviderAPIs.twilioAccountSid)/Calls.json")
            #expect(request.contentType == "application/x-www-form-urlencoded")
            #expect(request.fields.map(\.0) == ["To", "From", "Twiml", "StatusCallback"])
            #expect(request.field("To") == "+447700900123")
            let say = #"<Say language="de-DE">Ihr Code lautet 1 2 3 4 5 6 &lt;Play&gt;&amp;</Say>"#
            #expect(request.field("Twiml") == "<Response>\(say)<Pause length=\"1\"/>\(say)</Response>")
            #expect(request.status == 201)
            #expect(receipt == DeliveryReceipt(provider: "twilio", messageId: receipt.messageId))
            #expect(receipt.messageId?.hasPrefix("CA") == true)
        }
    }

    @Test func serverErrorsAreRetriedWithBackoffUntilOneSucceeds() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(500), .status(503)])
            let sleeps = RecordedSleeps()
            let receipt = try await Self.sms(apis, sleeps: sleeps).send(DeliveryFixtures.message())
            let sent = try await apis.requests(.twilioMessages)
            #expect(sent.map(\.status) == [500, 503, 201])
            #expect(sleeps.delays == [0.5, 1.0])
            #expect(receipt.messageId?.hasPrefix("SM") == true)
        }
    }

    @Test func tooManyRequestsWaitsAtLeastRetryAfter() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(429)])
            let sleeps = RecordedSleeps()
            _ = try await Self.sms(apis, sleeps: sleeps).send(DeliveryFixtures.message())
            #expect(try await apis.requests(.twilioMessages).map(\.status) == [429, 201])
            #expect(sleeps.delays == [2.0])
        }
    }

    @Test func threeServerErrorsGiveUpWithARetryableError() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(500), .status(500), .status(500), .status(500)])
            let sleeps = RecordedSleeps()
            let error = await #expect(throws: DeliveryError.self) { try await Self.sms(apis, sleeps: sleeps).send(DeliveryFixtures.message()) }
            #expect(error?.isRetryable == true)
            #expect(error?.description == "Twilio answered 500, error 20500: An internal server error has occurred (after 3 attempts)")
            #expect(try await apis.requests(.twilioMessages).count == 3)
            #expect(sleeps.delays == [0.5, 1.0])
        }
    }

    @Test func aRefusalIsNotRetriedAndCarriesTwiliosCode() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(400)])
            let sleeps = RecordedSleeps()
            let error = await #expect(throws: DeliveryError.self) { try await Self.sms(apis, sleeps: sleeps).send(DeliveryFixtures.message()) }
            #expect(error?.isRetryable == false)
            #expect(error?.description == "Twilio answered 400, error 21211: The 'To' number +447700900123 is not a valid phone number.")
            #expect(try await apis.requests(.twilioMessages).count == 1)
            #expect(sleeps.delays.isEmpty)
        }
    }

    @Test func wrongCredentialsNeitherHangNorAreQuoted() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let token = "not-the-token-d0e5f1a2b3c4"
            let delivery = TwilioSMSDelivery(
                account: DeliveryFixtures.twilioAccount(apis, authToken: token), sender: .from(Self.from), http: DeliveryFixtures.http,
                clock: ManualClock(), timeout: 1, retry: RecordedSleeps().policy(attempts: 1))
            let error = await #expect(throws: DeliveryError.self) { try await delivery.send(DeliveryFixtures.message()) }
            // Twilio's 401 carries `WWW-Authenticate`, which URLSession on Linux never completed
            // (swift-corelibs-foundation #5456); on libcurl it is an answer like any other.
            #expect(error?.description == "Twilio answered 401, error 20003: Authenticate")
            #expect(error?.isRetryable == false)
            let statuses = try await apis.requests(.twilioMessages).map(\.status)
            #expect(statuses == [401])
            for text in [error?.description ?? "", "\(delivery)", String(reflecting: delivery), "\(DeliveryFixtures.twilioAccount(apis, authToken: token))"] {
                #expect(!text.contains(token))
            }
            var dumped = ""
            dump(delivery, to: &dumped)
            #expect(!dumped.contains(token) && !dumped.contains(ProviderAPIs.twilioAuthToken))
        }
    }

    @Test func aDroppedConnectionIsRetried() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.drop])
            let sleeps = RecordedSleeps()
            let receipt = try await Self.sms(apis, sleeps: sleeps).send(DeliveryFixtures.message())
            #expect(try await apis.requests(.twilioMessages).map(\.status) == [nil, 201])
            #expect(sleeps.delays == [0.5])
            #expect(receipt.messageId != nil)
        }
    }

    @Test func aSlowAnswerTimesOutAndIsRetried() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.slow(3)])
            let sleeps = RecordedSleeps()
            let receipt = try await Self.sms(apis, sleeps: sleeps, timeout: 1).send(DeliveryFixtures.message())
            // Retried after one backoff: the first attempt was given up (no wall-clock bound is asserted).
            #expect(sleeps.delays == [0.5])
            #expect(try await apis.requests(.twilioMessages).count == 2)
            #expect(receipt.messageId != nil)
        }
    }

    @Test func aNumberThatIsNotE164DigitsIsRefusedBeforeAnyRequest() async throws {
        let delivery = TwilioSMSDelivery(
            account: TwilioAccount(accountSid: ProviderAPIs.twilioAccountSid, authToken: "x"), sender: .from(Self.from),
            http: UnimplementedOutboundHTTP(), clock: ManualClock())
        let message = OutboundMessage(id: "m", tenantId: "t", channel: .sms, to: "+44 7700", body: "hi", createdAt: Date())
        let error = await #expect(throws: DeliveryError.self) { try await delivery.send(message) }
        #expect(error?.isRetryable == false)
        let voice = await #expect(throws: DeliveryError.self) { try await delivery.send(DeliveryFixtures.message(.voice)) }
        #expect(voice?.description == "Twilio SMS cannot send a voice message")
    }
}
