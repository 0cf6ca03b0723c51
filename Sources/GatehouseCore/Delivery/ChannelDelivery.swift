/// Sends each message through the delivery of its channel: email through one (SMTP), SMS and
/// voice through others (each provider, or failover list, of its own). A channel with no
/// delivery is refused, so a failover list moves on to a provider that has one.
public struct ChannelDelivery: MessageDelivery {
    let sms: any MessageDelivery
    let voice: any MessageDelivery
    let email: (any MessageDelivery)?

    /// SMS and voice through `phone`, email through `email`.
    public init(phone: any MessageDelivery, email: any MessageDelivery) {
        self.init(sms: phone, voice: phone, email: email)
    }

    /// Each channel through its own delivery; without `email`, email is refused.
    public init(sms: any MessageDelivery, voice: any MessageDelivery, email: (any MessageDelivery)? = nil) {
        self.sms = sms
        self.voice = voice
        self.email = email
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    /// The receipt of the delivery that took it (a provider's message id survives the routing).
    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        switch message.channel {
        case .sms: return try await sms.send(message)
        case .voice: return try await voice.send(message)
        case .email:
            guard let email else { throw DeliveryError("no email delivery behind the SMS and voice providers") }
            return try await email.send(message)
        }
    }
}
