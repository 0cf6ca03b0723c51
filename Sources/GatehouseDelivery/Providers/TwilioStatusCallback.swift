import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// Checks a Twilio status callback (`X-Twilio-Signature`) and reads the status it reports.
///
/// Twilio signs `base64(HMAC-SHA1(authToken, url + name1 + value1 + name2 + value2 …))`:
/// the full URL it posted to (the `StatusCallback` as configured, query included), then every
/// POST parameter sorted by name, each name followed by its value (a repeated name's values
/// sorted, duplicates once). Twilio's own libraries also accept the URL with its default port
/// added or removed, because proxies disagree about it; so does this.
public enum TwilioStatusCallback {
    /// The `X-Twilio-Signature` of a POST of `parameters` to `url`.
    public static func signature(url: String, parameters: [(name: String, value: String)], authToken: String) -> String {
        var signed = url
        for name in Set(parameters.map(\.name)).sorted(by: utf8Order) {
            for value in Set(parameters.filter { $0.name == name }.map(\.value)).sorted(by: utf8Order) {
                signed += name + value
            }
        }
        return Base64.encode(HMAC.sha1(key: Array(authToken.utf8), message: Array(signed.utf8)))
    }

    /// Verifies a status callback whose raw form body is `body`, posted to `url`, and returns
    /// its report; nil for a status that is not final (`queued`, `sent`, `ringing`…), which
    /// leaves nothing to record.
    public static func verify(url: String, body: Data, signature: String?, authToken: String) throws -> DeliveryStatusReport? {
        guard let parameters = FormBody.parse(body) else {
            throw DeliveryCallbackRefusal.malformed("body is not form-encoded UTF-8")
        }
        return try verify(url: url, parameters: parameters, signature: signature, authToken: authToken)
    }

    /// ``verify(url:body:signature:authToken:)`` for parameters already decoded.
    public static func verify(
        url: String, parameters: [(name: String, value: String)], signature: String?, authToken: String
    ) throws -> DeliveryStatusReport? {
        guard let signature, !signature.isEmpty else { throw DeliveryCallbackRefusal.unsigned }
        // Compare every candidate, so timing does not tell which URL form matched.
        let matches = urlVariants(url).map { candidate in
            constantTimeEquals(Array(self.signature(url: candidate, parameters: parameters, authToken: authToken).utf8), Array(signature.utf8))
        }
        guard matches.contains(true) else { throw DeliveryCallbackRefusal.badSignature }
        return try report(parameters)
    }

    /// Messages: `delivered` and `read` count as delivered; `undelivered`, `failed` and
    /// `canceled` as not. Calls: `completed` is delivered; `busy`, `no-answer`, `failed` and
    /// `canceled` are not. Anything else is still under way.
    static func report(_ parameters: [(name: String, value: String)]) throws -> DeliveryStatusReport? {
        let errorCode = FormBody.value("ErrorCode", in: parameters).flatMap { $0.isEmpty ? nil : $0 }
        let id: String
        let status: String
        let delivered: Bool?
        if let callSid = FormBody.value("CallSid", in: parameters), let callStatus = FormBody.value("CallStatus", in: parameters) {
            (id, status) = (callSid, callStatus)
            delivered = switch callStatus {
            case "completed": true
            case "busy", "no-answer", "failed", "canceled": false
            default: nil
            }
        } else if let messageSid = FormBody.value("MessageSid", in: parameters) ?? FormBody.value("SmsSid", in: parameters),
                  let messageStatus = FormBody.value("MessageStatus", in: parameters) ?? FormBody.value("SmsStatus", in: parameters) {
            (id, status) = (messageSid, messageStatus)
            delivered = switch messageStatus {
            case "delivered", "read": true
            case "undelivered", "failed", "canceled": false
            default: nil
            }
        } else {
            throw DeliveryCallbackRefusal.malformed("neither MessageSid and MessageStatus nor CallSid and CallStatus")
        }
        guard let delivered else { return nil }
        let detail = errorCode.map { "\(status), error \($0)" } ?? status
        return DeliveryStatusReport(provider: "twilio", messageId: id, delivered: delivered, detail: detail)
    }

    /// `url` as given, then with the scheme's default port removed or added.
    static func urlVariants(_ url: String) -> [String] {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return [url] }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        guard let defaultPort else { return [url] }
        if components.port == defaultPort {
            components.port = nil
        } else if components.port == nil {
            components.port = defaultPort
        } else {
            return [url]
        }
        return [url] + (components.string.map { [$0] } ?? [])
    }

    /// Byte order of the UTF-8 text, as Twilio's libraries sort.
    private static func utf8Order(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
