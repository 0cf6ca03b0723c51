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

    public init(id: String, tenantId: String, channel: Channel, to: String, body: String, createdAt: Date) {
        self.id = id
        self.tenantId = tenantId
        self.channel = channel
        self.to = to
        self.body = body
        self.createdAt = createdAt
    }
}

/// Hands messages to whatever sends them. Throwing means the message was not accepted.
public protocol MessageDelivery: Sendable {
    func deliver(_ message: OutboundMessage) async throws
}

/// A delivery provider refused or could not take a message.
public struct DeliveryError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
