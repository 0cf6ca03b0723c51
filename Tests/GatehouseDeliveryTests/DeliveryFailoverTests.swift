import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseTesting
import Testing

/// `FailoverDelivery` over the real adapters: a provider that fails after its own retries
/// hands the message to the next, and the receipt is that of the one that took it.
@Suite struct DeliveryFailoverTests {
    static func providers(_ apis: ProviderAPIs, sleeps: RecordedSleeps, twilioBase: URL? = nil) -> [any MessageDelivery] {
        let twilio = TwilioSMSDelivery(
            account: TwilioAccount(accountSid: ProviderAPIs.twilioAccountSid, authToken: ProviderAPIs.twilioAuthToken, baseURL: twilioBase ?? apis.baseURL),
            sender: .from("+15005550006"), http: DeliveryFixtures.http, clock: ManualClock(), timeout: 2, retry: sleeps.policy())
        let vonage = VonageSMSDelivery(
            apiKey: ProviderAPIs.vonageAPIKey, apiSecret: ProviderAPIs.vonageAPISecret, from: "Gatehouse", baseURL: apis.baseURL,
            http: DeliveryFixtures.http, clock: ManualClock(), retry: sleeps.policy())
        return [twilio, vonage]
    }

    @Test func aProviderThatKeepsFailingHandsOverToTheNext() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(500), .status(502), .status(503)])
            let sleeps = RecordedSleeps()
            let receipt = try await FailoverDelivery(Self.providers(apis, sleeps: sleeps)).send(DeliveryFixtures.message())
            #expect(try await apis.requests(.twilioMessages).map(\.status) == [500, 502, 503])
            #expect(try await apis.requests(.vonageSMS).map(\.status) == [200])
            #expect(receipt.provider == "vonage")
            #expect(receipt.messageId?.isEmpty == false)
            #expect(sleeps.delays == [0.5, 1.0])
        }
    }

    @Test func aRefusalAlsoMovesOnAndTheFirstThatTakesItWins() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(400)])
            let receipt = try await FailoverDelivery(Self.providers(apis, sleeps: RecordedSleeps())).send(DeliveryFixtures.message())
            #expect(receipt.provider == "vonage")
            #expect(try await apis.requests(.twilioMessages).count == 1)

            let first = try await FailoverDelivery(Self.providers(apis, sleeps: RecordedSleeps())).send(DeliveryFixtures.message())
            #expect(first.provider == "twilio")
            #expect(try await apis.requests(.vonageSMS).count == 1)
        }
    }

    @Test func anUnreachableProviderIsRetriedThenPassedOver() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            // A port nobody listens on: each attempt is refused at connect.
            let dead = try #require(URL(string: "http://127.0.0.1:\(try freeLoopbackPort())"))
            let sleeps = RecordedSleeps()
            let receipt = try await FailoverDelivery(Self.providers(apis, sleeps: sleeps, twilioBase: dead)).send(DeliveryFixtures.message())
            #expect(receipt.provider == "vonage")
            #expect(sleeps.delays == [0.5, 1.0])
        }
    }

    @Test func whenEveryProviderFailsTheErrorNamesEachAndKeepsRetryability() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            try await apis.script(.twilioMessages, [.status(400)])
            try await apis.script(.vonageSMS, [.vonageStatus("1"), .vonageStatus("1"), .vonageStatus("1")])
            let error = await #expect(throws: DeliveryError.self) {
                try await FailoverDelivery(Self.providers(apis, sleeps: RecordedSleeps())).send(DeliveryFixtures.message())
            }
            #expect(error?.isRetryable == true)
            #expect(error?.description == "all 2 providers failed: "
                + "1. Twilio answered 400, error 21211: The 'To' number +447700900123 is not a valid phone number.; "
                + "2. Vonage SMS refused the message, status 1: Throughput Rate Exceeded - please wait [ 1000 ] and retry (after 3 attempts)")
        }
    }
}
