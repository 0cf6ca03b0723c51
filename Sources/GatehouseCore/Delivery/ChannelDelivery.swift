/// Sends each message through the provider of its channel: email through one (SMTP),
/// SMS and voice through another.
public struct ChannelDelivery: MessageDelivery {
    let phone: any MessageDelivery
    let email: any MessageDelivery

    public init(phone: any MessageDelivery, email: any MessageDelivery) {
        self.phone = phone
        self.email = email
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    /// The receipt of the provider that took it (a provider's message id survives the routing).
    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        switch message.channel {
        case .email: try await email.send(message)
        case .sms, .voice: try await phone.send(message)
        }
    }
}
