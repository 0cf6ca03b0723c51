import Foundation
import GatehouseCore
import GatehouseCrypto

/// Checks a Vonage signed webhook (Voice API call events; Messages API and JSON delivery
/// receipts alike) and reads the status it reports.
///
/// Vonage sends `Authorization: Bearer <JWT>`, HS256 under the account's signature secret,
/// whose `payload_hash` claim is the hex SHA-256 of the exact body bytes and whose `iat` says
/// when it was signed. The body is then read for the id (`uuid` of a call, `message_uuid`,
/// `messageId` or `message-id` of a message) and `status`.
public enum VonageSignedWebhook {
    /// Verifies the webhook and returns its report; nil for a status that is not final
    /// (`started`, `ringing`, `answered`, `submitted`, `accepted`, `buffered`…).
    ///
    /// - Parameters:
    ///   - authorization: the `Authorization` header as received.
    ///   - body: the raw body bytes, before any JSON parsing.
    ///   - now: the injected clock's time; `iat` must be within `maximumAge` of it either way.
    ///   - applicationId: when given, the token's `application_id` must be this one (a
    ///     signature secret is per account; this binds the event to one application).
    public static func verify(
        authorization: String?, body: Data, signatureSecret: String, now: Date, maximumAge: TimeInterval = 300,
        applicationId: String? = nil
    ) throws -> DeliveryStatusReport? {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else {
            throw DeliveryCallbackRefusal.unsigned
        }
        guard let jws = try? CompactJWS(compact: String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)),
              jws.header.alg == "HS256",
              constantTimeEquals(HMAC.sha256(key: Array(signatureSecret.utf8), message: jws.signingInput), jws.signature)
        else { throw DeliveryCallbackRefusal.badSignature }
        guard let claims = try? jws.decodePayload(Claims.self) else { throw DeliveryCallbackRefusal.malformed("token claims are unreadable") }
        do {
            try JWT.checkValidity(of: jws, now: now)
        } catch {
            throw DeliveryCallbackRefusal.stale
        }
        guard let iat = claims.iat, abs(now.timeIntervalSince1970 - iat) <= maximumAge else { throw DeliveryCallbackRefusal.stale }
        // The token signs the body only through this hash: without it, any body could ride on a stolen token.
        let bodyHash = SHA256.hash(body).hexString
        guard let claimed = claims.payloadHash?.lowercased(), constantTimeEquals(Array(claimed.utf8), Array(bodyHash.utf8)) else {
            throw DeliveryCallbackRefusal.badSignature
        }
        if let applicationId, claims.applicationId != applicationId { throw DeliveryCallbackRefusal.badSignature }
        guard let event = try? JSONDecoder().decode(Event.self, from: body) else {
            throw DeliveryCallbackRefusal.malformed("body is not a JSON event")
        }
        guard let id = event.uuid ?? event.messageUUID ?? event.messageId ?? event.messageIdDashed, let status = event.status else {
            throw DeliveryCallbackRefusal.malformed("no message id and status")
        }
        return report(id: id, status: status, errorCode: event.errorCode ?? event.detail)
    }

    private struct Claims: Decodable {
        let iat: Double?
        let payloadHash: String?
        let applicationId: String?
        enum CodingKeys: String, CodingKey { case iat, payloadHash = "payload_hash", applicationId = "application_id" }
    }

    private struct Event: Decodable {
        let uuid: String?
        let messageUUID: String?
        let messageId: String?
        let messageIdDashed: String?
        let status: String?
        let errorCode: String?
        let detail: String?
        enum CodingKeys: String, CodingKey {
            case uuid, messageUUID = "message_uuid", messageId, messageIdDashed = "message-id", status, errorCode = "err-code", detail
        }
    }

    /// Delivered: `delivered`, `read`, and a call's `completed`. Not delivered: `failed`,
    /// `rejected`, `expired`, `undeliverable`, and a call's `busy`, `cancelled`, `timeout`,
    /// `unanswered`. Anything else is still under way (nil).
    static func report(id: String, status: String, errorCode: String?) -> DeliveryStatusReport? {
        let delivered: Bool
        switch status {
        case "delivered", "read", "completed": delivered = true
        case "failed", "rejected", "expired", "undeliverable", "busy", "cancelled", "timeout", "unanswered": delivered = false
        default: return nil
        }
        let code = errorCode.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        return DeliveryStatusReport(provider: "vonage", messageId: id, delivered: delivered, detail: code.map { "\(status), \($0)" } ?? status)
    }
}
