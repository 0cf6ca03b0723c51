import GatehouseOutbound
import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseTesting

/// What the provider adapter tests share: a message, a local provider service per test, and
/// a retry policy whose sleeps are recorded instead of slept.
enum DeliveryFixtures {
    static let destination = "447700900123"

    static func message(_ channel: OutboundMessage.Channel = .sms, body: String = "Your Gatehouse code is 123456", language: String? = nil) -> OutboundMessage {
        OutboundMessage(
            id: "0199a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", tenantId: "tenant-1", channel: channel, to: destination, body: body,
            createdAt: Date(timeIntervalSince1970: 1_767_225_600), language: language)
    }

    static let http = CurlHTTPClient()

    static func twilioAccount(_ apis: ProviderAPIs, authToken: String = ProviderAPIs.twilioAuthToken) -> TwilioAccount {
        TwilioAccount(accountSid: ProviderAPIs.twilioAccountSid, authToken: authToken, baseURL: apis.baseURL)
    }

    /// Runs `body` with a provider service of its own, stopped afterwards whatever happens.
    static func withProviderAPIs<T>(_ body: (ProviderAPIs) async throws -> T) async throws -> T {
        let apis = try await ProviderAPIs.start()
        do {
            let result = try await body(apis)
            await apis.shutdown()
            return result
        } catch {
            await apis.shutdown()
            throw error
        }
    }
}

/// A `DeliveryRetryPolicy.Sleep` that remembers each wait and returns at once.
final class RecordedSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [TimeInterval] = []

    var delays: [TimeInterval] { lock.withLock { waits } }

    func policy(attempts: Int = 3, initialBackoff: TimeInterval = 0.5, maximumBackoff: TimeInterval = 8) -> DeliveryRetryPolicy {
        DeliveryRetryPolicy(attempts: attempts, initialBackoff: initialBackoff, maximumBackoff: maximumBackoff) { [self] seconds in
            lock.withLock { waits.append(seconds) }
        }
    }
}
