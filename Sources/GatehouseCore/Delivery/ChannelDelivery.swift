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
        switch message.channel {
        case .email: try await email.deliver(message)
        case .sms, .voice: try await phone.deliver(message)
        }
    }
}
