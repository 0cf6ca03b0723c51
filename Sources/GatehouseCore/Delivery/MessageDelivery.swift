import Foundation

/// A message for a person: an SMS, a voice call's spoken text, or an email.
public struct OutboundMessage: Sendable, Equatable, Codable {
    public enum Channel: String, Sendable, Codable { case sms, voice, email }

    public let id: String
    public let tenantId: String
    public let channel: Channel
    /// Digits of a phone number (no `+`) or an email address.
    public let to: String
    public let body: String
    public let createdAt: Date
    /// The BCP-47 tag the body is written in (`en-US`), so a voice provider reads it with the
    /// right voice; nil when unknown (providers then use their default, `en-US`).
    public let language: String?

    public init(
        id: String, tenantId: String, channel: Channel, to: String, body: String, createdAt: Date, language: String? = nil
    ) {
        self.id = id
        self.tenantId = tenantId
        self.channel = channel
        self.to = to
        self.body = body
        self.createdAt = createdAt
        self.language = language
    }
}

/// What a provider said when it took a message: who it was and the id it gave the message,
/// which its delivery-status callbacks name later.
public struct DeliveryReceipt: Sendable, Equatable {
    /// The provider's short name (`twilio`, `vonage`); nil for a delivery that has none.
    public let provider: String?
    /// The provider's id of the message or call (a Twilio SID, a Vonage message id or call uuid).
    public let messageId: String?

    public init(provider: String? = nil, messageId: String? = nil) {
        self.provider = provider
        self.messageId = messageId
    }
}

/// Hands messages to whatever sends them. Throwing means the message was not accepted.
public protocol MessageDelivery: Sendable {
    func deliver(_ message: OutboundMessage) async throws

    /// Hands the message over like `deliver` and returns the provider's receipt.
    func send(_ message: OutboundMessage) async throws -> DeliveryReceipt
}

extension MessageDelivery {
    /// For deliveries with no provider message id (outbox, SMTP, webhook): a receipt of nils.
    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        try await deliver(message)
        return DeliveryReceipt()
    }
}

/// A delivery provider refused or could not take a message.
public struct DeliveryError: Error, Equatable, CustomStringConvertible {
    public let description: String
    /// True when the same message may succeed if tried again later (a timeout, a 5xx, a
    /// throttle); false when the provider refused it for good (bad number, bad credentials).
    public let isRetryable: Bool

    /// A refusal that is permanent unless `retryable` says otherwise.
    public init(_ description: String, retryable: Bool = false) {
        self.description = description
        self.isRetryable = retryable
    }
}
