import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehouseVerificationEngine

/// Providers' delivery receipts. Anything unsigned, tampered or stale is a 403 and records
/// nothing; a status that is not final is taken (204) and ignored.
///
/// - `POST /webhooks/delivery/twilio`: the status callback of Twilio's messages and calls,
///   signed with the account's auth token (`X-Twilio-Signature` over the URL Twilio was given
///   and the form's fields).
/// - `POST|GET /webhooks/delivery/vonage`: a call's events and JSON receipts, signed with a
///   JWT under the account's signature secret (`Authorization: Bearer`, the body's hash in it);
///   SMS receipts as a form or query string with their `sig`.
enum DeliveryReceiptRoutes {
    static let twilioPath = "/webhooks/delivery/twilio"
    static let vonagePath = "/webhooks/delivery/vonage"

    /// How Vonage's receipts are checked: the signature secret, how SMS receipts' `sig` is made,
    /// and the application whose call events are accepted.
    struct VonageSigning: Sendable {
        let secret: String
        let method: VonageSMSSignature.Method
        let applicationId: String?
    }

    /// `publicURL`: the address providers reach this server at (what Twilio signs).
    static func register(
        on router: Router, engine: VerificationEngine, twilioAuthToken: String?, vonage: VonageSigning?, clock: any Clock,
        publicURL: @escaping @Sendable () -> String
    ) {
        if let twilioAuthToken {
            router.on(.POST, twilioPath, maxBodySize: 16 << 10, body: .any, .async { request, _ in
                try await record(engine) {
                    try TwilioStatusCallback.verify(
                        url: publicURL() + twilioPath, body: request.body, signature: request.headers["X-Twilio-Signature"], authToken: twilioAuthToken)
                }
            })
        }
        if let vonage {
            router.on(.POST, vonagePath, maxBodySize: 16 << 10, body: .any, .async { request, _ in
                try await record(engine) {
                    if request.headers["Authorization"] != nil {
                        return try VonageSignedWebhook.verify(
                            authorization: request.headers["Authorization"], body: request.body, signatureSecret: vonage.secret, now: clock.now,
                            applicationId: vonage.applicationId)
                    }
                    return try VonageSMSSignature.verify(body: request.body, signatureSecret: vonage.secret, method: vonage.method, now: clock.now)
                }
            })
            // Vonage's SMS receipts come as a GET with the query string unless the dashboard says POST.
            router.on(.GET, vonagePath, .async { request, _ in
                try await record(engine) {
                    try VonageSMSSignature.verify(parameters: request.query, signatureSecret: vonage.secret, method: vonage.method, now: clock.now)
                }
            })
        }
    }

    /// Records what `verify` reads from a receipt it believes: 204, or 403 when it does not.
    private static func record(_ engine: VerificationEngine, _ verify: () throws -> DeliveryStatusReport?) async throws -> Response {
        let report: DeliveryStatusReport?
        do {
            report = try verify()
        } catch {
            return Response(status: 403)
        }
        if let report { try await engine.recordDeliveryReceipt(provider: report.provider, messageId: report.messageId, delivered: report.delivered) }
        return Response(status: 204)
    }
}
