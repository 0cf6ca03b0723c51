import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// Sends each message as a signed JSON POST to a provider bridge (an SMS gateway, a voice
/// platform, a mailer). The receiver checks `X-Gatehouse-Signature`, which is
/// `base64(HMAC-SHA256(secret, "<timestamp>.<body>"))`, and `X-Gatehouse-Timestamp`.
public struct WebhookDelivery: MessageDelivery {
    let url: URL
    let secret: [UInt8]
    let http: any OutboundHTTP
    let clock: any Clock

    public init(url: URL, secret: String, http: any OutboundHTTP, clock: any Clock) {
        self.url = url
        self.secret = Array(secret.utf8)
        self.http = http
        self.clock = clock
    }

    public func deliver(_ message: OutboundMessage) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // The bridge's body is the one it has always been (no `language`, which the providers' adapters use).
        let body = try encoder.encode(Payload(message))
        let timestamp = String(Int64(clock.now.timeIntervalSince1970))
        // Well inside the delivery lease, so a slow bridge is never claimed and sent twice.
        var request = OutboundRequest(url: url, timeoutInterval: 15)
        // Only the status is read, but no smaller limit than the client's: a bridge that took
        // the message and answered at length must not have it claimed and sent again.
        request.target = .webhook
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(timestamp, forHTTPHeaderField: "X-Gatehouse-Timestamp")
        request.setValue(Self.signature(secret: secret, timestamp: timestamp, body: body), forHTTPHeaderField: "X-Gatehouse-Signature")
        let (_, response) = try await http.send(request)
        guard (200..<300).contains(response.statusCode) else {
            throw DeliveryError("delivery webhook answered \(response.statusCode)")
        }
    }

    /// The signature a receiver recomputes to trust a message.
    public static func signature(secret: [UInt8], timestamp: String, body: Data) -> String {
        Base64.encode(HMAC.sha256(key: secret, message: Array(timestamp.utf8) + [UInt8(ascii: ".")] + Array(body)))
    }
}

/// The webhook bridge's JSON, field for field as it was before messages carried a language.
private struct Payload: Encodable {
    let id: String
    let tenantId: String
    let channel: OutboundMessage.Channel
    let to: String
    let body: String
    let createdAt: Date

    init(_ message: OutboundMessage) {
        (id, tenantId, channel, to, body, createdAt) = (message.id, message.tenantId, message.channel, message.to, message.body, message.createdAt)
    }
}
