import Foundation
import GatehouseCore

/// Sends `.sms` messages with the Vonage SMS API: `POST https://rest.nexmo.com/sms/json` with
/// `api_key`, `api_secret`, `from`, `to` (digits), `text`, `client-ref` (the message id, so a
/// delivery receipt can be matched even before the receipt is stored) and optionally
/// `callback`; `type=unicode` when the text leaves the GSM 03.38 alphabet.
///
/// Vonage answers 200 even when it refuses: each part's `status` says, `"0"` being success.
/// `"1"` (throttled) and `"5"` (internal error) are retried; every other status is a refusal.
/// The receipt carries the first part's `message-id`.
public struct VonageSMSDelivery: MessageDelivery {
    /// `https://rest.nexmo.com`.
    public static let defaultBaseURL = URL(string: "https://rest.nexmo.com")!

    let apiKey: String
    let apiSecret: ProviderSecret
    let from: String
    let callback: URL?
    let baseURL: URL
    let exchange: ProviderExchange

    /// - Parameters:
    ///   - from: a Vonage number in digits or an alphanumeric sender ID where the country allows one.
    ///   - callback: where Vonage sends the delivery receipt (overrides the account's default).
    ///   - timeout, retry: as for `TwilioSMSDelivery`.
    public init(
        apiKey: String, apiSecret: String, from: String, callback: URL? = nil, baseURL: URL = VonageSMSDelivery.defaultBaseURL,
        http: any OutboundHTTP, clock: any Clock, timeout: TimeInterval = 10, retry: DeliveryRetryPolicy = .standard
    ) {
        self.apiKey = apiKey
        self.apiSecret = ProviderSecret(apiSecret)
        self.from = from
        self.callback = callback
        self.baseURL = baseURL
        exchange = ProviderExchange(name: "Vonage SMS", http: http, clock: clock, timeout: timeout, retry: retry, secrets: [self.apiSecret])
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        guard message.channel == .sms else { throw DeliveryError("Vonage SMS cannot send a \(message.channel.rawValue) message") }
        _ = try ProviderFields.e164(message.to)
        var fields = [
            ("api_key", apiKey), ("api_secret", apiSecret.value), ("from", from), ("to", message.to), ("text", message.body),
        ]
        if !GSM7.canEncode(message.body) { fields.append(("type", "unicode")) }
        fields.append(("client-ref", String(message.id.prefix(100))))
        if let callback { fields.append(("callback", callback.absoluteString)) }
        let url = try ProviderExchange.endpoint(baseURL, "/sms/json")
        let id = try await exchange.perform({ ProviderExchange.formPost(url, fields) }, interpret: Self.interpret)
        return DeliveryReceipt(provider: "vonage", messageId: id)
    }

    private struct Answer: Decodable {
        struct Part: Decodable {
            let status: String
            let messageId: String?
            let errorText: String?
            enum CodingKeys: String, CodingKey { case status, messageId = "message-id", errorText = "error-text" }
        }
        let messages: [Part]
    }

    static func interpret(_ data: Data, _ response: OutboundResponse) throws -> String {
        let status = response.statusCode
        guard (200..<300).contains(status) else {
            throw DeliveryError("Vonage SMS answered \(status)", retryable: ProviderExchange.isRetryable(status: status))
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data), let first = answer.messages.first else {
            throw DeliveryError("Vonage SMS answered \(status) without messages")
        }
        if let refused = answer.messages.first(where: { $0.status != "0" }) {
            // Once a part went out, trying again would send it twice.
            let anySent = answer.messages.contains { $0.status == "0" }
            var text = "Vonage SMS refused the message, status \(refused.status)"
            if let reason = ProviderExchange.excerpt(refused.errorText) { text += ": \(reason)" }
            throw DeliveryError(text, retryable: !anySent && ["1", "5"].contains(refused.status))
        }
        guard let id = first.messageId, !id.isEmpty else { throw DeliveryError("Vonage SMS answered without a message-id") }
        return id
    }
}

/// The GSM 03.38 default alphabet and its extension table: text outside them must go as
/// UCS-2 (`type=unicode`), or the handset shows `?` for each such character.
enum GSM7 {
    static let characters: Set<Character> = Set(
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
            + "^{}\\[~]|€\u{0C}"
    ).union(["\r\n"])

    static func canEncode(_ text: String) -> Bool {
        text.allSatisfy { characters.contains($0) }
    }
}
