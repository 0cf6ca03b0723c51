import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseOutbound
import GatehouseTesting
import Testing

/// The delivery adapters over the real outbound client, against a provider that misbehaves:
/// every attempt ends within its timeout, a wrong credential answered with 401 and
/// `WWW-Authenticate: Basic` is a permanent refusal at once, what cannot be told apart from a
/// passing fault is retried (the backoff is recorded, not slept), and no redirect is followed.
@Suite struct ProviderTransportTests {
    static func twilio(_ upstream: HostileUpstream, _ path: String, sleeps: RecordedSleeps) -> TwilioSMSDelivery {
        TwilioSMSDelivery(
            account: TwilioAccount(accountSid: "AC" + String(repeating: "0", count: 32), authToken: "auth-token", baseURL: upstream.url(path)),
            sender: .from("+15005550006"), http: DeliveryFixtures.http, clock: ManualClock(), timeout: 1, retry: sleeps.policy(attempts: 2))
    }

    @Test func aHostileProviderEndsEverySendWithinItsTimeout() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let cases: [(path: String, retryable: Bool, attempts: Int)] = [
            ("/unauthorized/basic", false, 1),
            ("/silent", true, 2),
            ("/head-only", true, 2),
            ("/trickle", true, 2),
            ("/reset", true, 2),
            ("/redirect?to=/ok", false, 1),
            ("/headers?count=400", true, 2),
        ]
        for item in cases {
            let sleeps = RecordedSleeps()
            do {
                _ = try await Self.twilio(upstream, item.path, sleeps: sleeps).send(DeliveryFixtures.message())
                Issue.record("\(item.path) was sent")
            } catch let error as DeliveryError {
                #expect(error.isRetryable == item.retryable, "\(item.path): \(error)")
                #expect(sleeps.delays.count == item.attempts - 1, "\(item.path): \(sleeps.delays)")
                #expect(!error.description.contains("auth-token"))
            }
        }
    }

    @Test func theDeliveryWebhookTakesA401OrARedirectAsAnAnswer() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        for (path, status) in [("/unauthorized/basic", 401), ("/redirect?to=/ok", 302)] {
            let webhook = WebhookDelivery(url: upstream.url(path), secret: "s", http: DeliveryFixtures.http, clock: ManualClock())
            await #expect(throws: DeliveryError("delivery webhook answered \(status)")) { try await webhook.deliver(DeliveryFixtures.message()) }
        }
    }
}
