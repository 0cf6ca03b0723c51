import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseCrypto
import GatehouseTesting
import Testing

/// The Vonage adapters against `ProviderAPIs`, which checks each request as Vonage's API
/// references describe them (the Voice API verifies the RS256 token with the application's
/// public key) and answers as Vonage does.
@Suite struct DeliveryVonageTests {
    static let callback = URL(string: "https://gatehouse.example/api/delivery/vonage/status")!

    static func sms(_ apis: ProviderAPIs, sleeps: RecordedSleeps, secret: String = ProviderAPIs.vonageAPISecret) -> VonageSMSDelivery {
        VonageSMSDelivery(
            apiKey: ProviderAPIs.vonageAPIKey, apiSecret: secret, from: "Gatehouse", callback: callback, baseURL: apis.baseURL,
            http: DeliveryFixtures.http, clock: ManualClock(), retry: sleeps.policy())
    }

    static func voice(_ apis: ProviderAPIs, sleeps: RecordedSleeps) async throws -> VonageVoiceDelivery {
        // The API checks `iat` and `exp` against its own wall clock, as Vonage does.
        try VonageVoiceDelivery(
            applicationId: ProviderAPIs.vonageApplicationId, privateKeyPEM: try await apis.vonagePrivateKeyPEM(), from: "15005550006",
            eventURL: callback, baseURL: apis.baseURL, http: DeliveryFixtures.http, clock: SystemClock(), random: SystemRandom(),
            retry: sleeps.policy())
    }

    @Test func smsIsOneFormPostWithTheDocumentedFieldsAndReturnsTheMessageId() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let message = DeliveryFixtures.message()
            let receipt = try await Self.sms(apis, sleeps: RecordedSleeps()).send(message)
            let request = try #require(try await apis.requests(.vonageSMS).first)
            #expect(request.method == "POST")
            #expect(request.path == "/sms/json")
            #expect(request.contentType == "application/x-www-form-urlencoded")
            #expect(request.authorization == nil)
            #expect(request.fields.map(\.0) == ["api_key", "api_secret", "from", "to", "text", "client-ref", "callback"])
            #expect(request.field("api_key") == ProviderAPIs.vonageAPIKey)
            #expect(request.field("api_secret") == "<redacted>")  // checked by the service, not kept
            #expect(request.field("to") == DeliveryFixtures.destination)
            #expect(request.field("text") == message.body)
            #expect(request.field("client-ref") == message.id)
            #expect(request.field("callback") == Self.callback.absoluteString)
            #expect(request.status == 200)
            let id = try #require(receipt.messageId)
            #expect(receipt.provider == "vonage")
            #expect(request.answer?.contains("\"message-id\": \"\(id)\"") == true)
        }
    }

    @Test func textOutsideGSM7GoesAsUnicode() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            _ = try await Self.sms(apis, sleeps: RecordedSleeps()).send(DeliveryFixtures.message(body: "Ваш код 123456"))
            _ = try await Self.sms(apis, sleeps: RecordedSleeps()).send(DeliveryFixtures.message(body: "Dein Code: 123456 — Grüße"))
            _ = try await Self.sms(apis, sleeps: RecordedSleeps()).send(DeliveryFixtures.message(body: "Votre code: 123456 é [ok] €"))
            #expect(try await apis.requests(.vonageSMS).map { $0.field("type") } == ["unicode", "unicode", nil])
        }
    }

    @Test func throttledIsRetriedAndBadCredentialsAreNot() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.vonageSMS, [.vonageStatus("1"), .status(500)])
            let sleeps = RecordedSleeps()
            let receipt = try await Self.sms(apis, sleeps: sleeps).send(DeliveryFixtures.message())
            #expect(try await apis.requests(.vonageSMS).map(\.status) == [200, 500, 200])
            #expect(sleeps.delays == [0.5, 1.0])
            #expect(receipt.messageId != nil)

            try await apis.reset()
            let secret = "wrong-secret-9f8e7d6c"
            let error = await #expect(throws: DeliveryError.self) {
                try await Self.sms(apis, sleeps: RecordedSleeps(), secret: secret).send(DeliveryFixtures.message())
            }
            #expect(error?.description == "Vonage SMS refused the message, status 4: Bad Credentials")
            #expect(error?.isRetryable == false)
            #expect(try await apis.requests(.vonageSMS).count == 1)
            #expect(!(error?.description.contains(secret) ?? true))
        }
    }

    @Test func voiceCallCarriesAnApplicationTokenAndTwoTalkActions() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let body = "Your code is 1 2 3 4 5 6."
            let receipt = try await Self.voice(apis, sleeps: RecordedSleeps()).send(DeliveryFixtures.message(.voice, body: body, language: "en-GB"))
            let request = try #require(try await apis.requests(.vonageCalls).first)
            #expect(request.method == "POST")
            #expect(request.path == "/v1/calls")
            #expect(request.contentType == "application/json")
            #expect(request.authorization == "bearer")
            #expect(request.status == 201)
            let talk = #"{"action": "talk", "language": "en-GB", "text": "Your code is 1 2 3 4 5 6."}"#
            let expected = #"{"event_method": "POST", "event_url": ["https://gatehouse.example/api/delivery/vonage/status"], "#
                + #""from": {"number": "15005550006", "type": "phone"}, "ncco": [\#(talk), \#(talk)], "#
                + #""to": [{"number": "447700900123", "type": "phone"}]}"#
            #expect(request.jsonText == expected)
            let uuid = try #require(receipt.messageId)
            #expect(UUID(uuidString: uuid) != nil)
            #expect(receipt.provider == "vonage")
        }
    }

    @Test func voiceRetriesWithAFreshTokenAndStopsOnValidationErrors() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            // The API refuses a token id it has seen: a retry that reused the token would get 401.
            try await apis.script(.vonageCalls, [.status(503)])
            let sleeps = RecordedSleeps()
            let voice = try await Self.voice(apis, sleeps: sleeps)
            _ = try await voice.send(DeliveryFixtures.message(.voice))
            #expect(try await apis.requests(.vonageCalls).map(\.status) == [503, 201])
            #expect(sleeps.delays == [0.5])

            try await apis.script(.vonageCalls, [.status(400)])
            let error = await #expect(throws: DeliveryError.self) { try await voice.send(DeliveryFixtures.message(.voice)) }
            #expect(error?.description == "Vonage Voice answered 400: Bad Request (The request failed due to validation errors)")
            #expect(error?.isRetryable == false)
            #expect(try await apis.requests(.vonageCalls).count == 3)
        }
    }

    @Test func aTokenFromAnotherKeyIsUnauthorized() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let otherKey = try Self.generatedRSAKeyPEM()
            let voice = try VonageVoiceDelivery(
                applicationId: ProviderAPIs.vonageApplicationId, privateKeyPEM: otherKey, from: "15005550006", baseURL: apis.baseURL,
                http: DeliveryFixtures.http, clock: SystemClock(), random: SystemRandom(), retry: RecordedSleeps().policy())
            let error = await #expect(throws: DeliveryError.self) { try await voice.send(DeliveryFixtures.message(.voice)) }
            #expect(error?.description == "Vonage Voice answered 401: Unauthorized (You did not provide correct credentials.)")
            #expect(error?.isRetryable == false)
        }
    }

    @Test func aKeyThatIsNotRSAIsRefusedWithoutQuotingIt() throws {
        let ecKey = try P256PrivateKey.generate().pemRepresentation
        for pem in [ecKey, "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n"] {
            let error = #expect(throws: DeliveryError.self) {
                try VonageVoiceDelivery(
                    applicationId: "app", privateKeyPEM: pem, from: "1", http: UnimplementedOutboundHTTP(), clock: ManualClock(),
                    random: SeededRandom(seed: 1))
            }
            #expect(error.map { !$0.description.contains("BEGIN") && !$0.description.contains("not a key") } == true)
        }
    }

    /// A 2048-bit RSA key made by the `openssl` command line, as an operator would make one
    /// (one of the tests' keys made ahead, none of them the stand-in's).
    static func generatedRSAKeyPEM() throws -> String {
        TestRSAKeys.pairs[0].privatePEM
    }
}
