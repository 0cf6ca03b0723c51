import Foundation
import GatehouseCore
import GatehouseCrypto

/// Checks a Vonage SMS API delivery receipt signed the SMS API's way (a `sig` parameter,
/// for receipts sent as form posts or query strings) and reads its status.
///
/// The signed text is every parameter but `sig`, sorted by name, each as `&name=value` with
/// `&` and `=` in values replaced by `_`; `sig` is the lowercase hex of MD5(text + secret)
/// for `md5hash`, or of HMAC(secret, text) for the HMAC methods. The receipt's `timestamp`
/// (Unix seconds, signed too) must be within `maximumAge` of now, so old receipts cannot be replayed.
public enum VonageSMSSignature {
    /// The signature method chosen in the Vonage dashboard.
    public enum Method: String, Sendable {
        case md5Hash = "md5hash"
        case hmacSHA1 = "sha1"
        case hmacSHA256 = "sha256"
        case hmacSHA512 = "sha512"
    }

    /// The `sig` for `parameters` (any `sig` among them is ignored).
    public static func signature(parameters: [(name: String, value: String)], signatureSecret: String, method: Method) -> String {
        let signed = parameters.filter { $0.name != "sig" }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .map { "&\($0.name)=\($0.value.replacingOccurrences(of: "&", with: "_").replacingOccurrences(of: "=", with: "_"))" }
            .joined()
        let key = Array(signatureSecret.utf8)
        let text = Array(signed.utf8)
        let digest: [UInt8] = switch method {
        case .md5Hash: MD5.hash(text + key)
        case .hmacSHA1: HMAC.sha1(key: key, message: text)
        case .hmacSHA256: HMAC.sha256(key: key, message: text)
        case .hmacSHA512: HMAC.sha512(key: key, message: text)
        }
        return digest.hexString
    }

    /// Verifies a receipt whose raw form body (or query string) is `body`.
    public static func verify(
        body: Data, signatureSecret: String, method: Method, now: Date, maximumAge: TimeInterval = 300
    ) throws -> DeliveryStatusReport? {
        guard let parameters = FormBody.parse(body) else { throw DeliveryCallbackRefusal.malformed("body is not form-encoded UTF-8") }
        return try verify(parameters: parameters, signatureSecret: signatureSecret, method: method, now: now, maximumAge: maximumAge)
    }

    /// ``verify(body:signatureSecret:method:now:maximumAge:)`` for parameters already decoded.
    public static func verify(
        parameters: [(name: String, value: String)], signatureSecret: String, method: Method, now: Date, maximumAge: TimeInterval = 300
    ) throws -> DeliveryStatusReport? {
        guard let sig = FormBody.value("sig", in: parameters), !sig.isEmpty else { throw DeliveryCallbackRefusal.unsigned }
        let expected = signature(parameters: parameters, signatureSecret: signatureSecret, method: method)
        guard constantTimeEquals(Array(sig.lowercased().utf8), Array(expected.utf8)) else { throw DeliveryCallbackRefusal.badSignature }
        guard let timestamp = FormBody.value("timestamp", in: parameters).flatMap(Double.init),
              abs(now.timeIntervalSince1970 - timestamp) <= maximumAge
        else { throw DeliveryCallbackRefusal.stale }
        guard let id = FormBody.value("messageId", in: parameters), let status = FormBody.value("status", in: parameters) else {
            throw DeliveryCallbackRefusal.malformed("no messageId and status")
        }
        return VonageSignedWebhook.report(id: id, status: status, errorCode: FormBody.value("err-code", in: parameters))
    }
}
