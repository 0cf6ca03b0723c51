import Foundation
import GatehouseCore

/// Sends `.sms` messages with Twilio Programmable Messaging:
/// `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with `To`, `From` or
/// `MessagingServiceSid`, `Body` and optionally `StatusCallback`. The receipt carries the
/// message SID (`SM…`) that Twilio's status callbacks name.
public struct TwilioSMSDelivery: MessageDelivery {
    /// Who the message comes from.
    public enum Sender: Sendable, Equatable {
        /// A Twilio number in E.164 (`+15005550006`), a short code or an alphanumeric sender ID.
        case from(String)
        /// A Messaging Service (`MG…`), which picks the number from its sender pool.
        case messagingService(sid: String)
    }

    /// Twilio refuses longer bodies (error 21617).
    public static let maximumBodyLength = 1600

    let account: TwilioAccount
    let sender: Sender
    let statusCallback: URL?
    let exchange: ProviderExchange

    /// - Parameters:
    ///   - statusCallback: where Twilio posts the message's status (verify it with `TwilioStatusCallback`).
    ///   - timeout: seconds allowed for each attempt (whole seconds, at least one).
    ///   - retry: attempts and backoff for 5xx, 429 and transport failures.
    ///   - clock: reads an HTTP-date `Retry-After`.
    public init(
        account: TwilioAccount, sender: Sender, statusCallback: URL? = nil, http: any OutboundHTTP, clock: any Clock,
        timeout: TimeInterval = 10, retry: DeliveryRetryPolicy = .standard
    ) {
        self.account = account
        self.sender = sender
        self.statusCallback = statusCallback
        exchange = ProviderExchange(name: "Twilio", http: http, clock: clock, timeout: timeout, retry: retry, secrets: [account.password])
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        guard message.channel == .sms else { throw DeliveryError("Twilio SMS cannot send a \(message.channel.rawValue) message") }
        guard message.body.count <= Self.maximumBodyLength else {
            throw DeliveryError("message is longer than Twilio's \(Self.maximumBodyLength) characters")
        }
        var fields = [("To", try ProviderFields.e164(message.to))]
        switch sender {
        case .from(let number): fields.append(("From", number))
        case .messagingService(let sid): fields.append(("MessagingServiceSid", sid))
        }
        fields.append(("Body", message.body))
        if let statusCallback { fields.append(("StatusCallback", statusCallback.absoluteString)) }
        let sid = try await account.create("Messages", fields, exchange: exchange)
        return DeliveryReceipt(provider: "twilio", messageId: sid)
    }
}
