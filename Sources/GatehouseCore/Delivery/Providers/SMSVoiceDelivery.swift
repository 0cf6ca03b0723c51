/// Sends `.sms` messages through one delivery and `.voice` calls through another, so each
/// channel can have its own provider (or its own failover list) behind `ChannelDelivery`'s
/// phone side.
public struct SMSVoiceDelivery: MessageDelivery {
    let sms: any MessageDelivery
    let voice: any MessageDelivery

    public init(sms: any MessageDelivery, voice: any MessageDelivery) {
        self.sms = sms
        self.voice = voice
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        switch message.channel {
        case .sms: try await sms.send(message)
        case .voice: try await voice.send(message)
        case .email: throw DeliveryError("no email provider behind the SMS and voice providers")
        }
    }
}
