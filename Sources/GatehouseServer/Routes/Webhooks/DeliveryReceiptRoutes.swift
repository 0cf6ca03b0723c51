import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine

/// Providers' delivery receipts: `POST /webhooks/delivery/twilio`, the status callback of
/// Twilio's messages and calls, signed with the account's auth token (`X-Twilio-Signature`
/// over the URL Twilio was given and the form's fields). Anything unsigned or tampered is a 403
/// and records nothing; a status that is not final is taken and ignored.
enum DeliveryReceiptRoutes {
    static let twilioPath = "/webhooks/delivery/twilio"

    /// `publicURL`: the address providers reach this server at (what Twilio signs).
    static func register(on router: Router, engine: VerificationEngine, twilioAuthToken: String?, publicURL: @escaping @Sendable () -> String) {
        guard let twilioAuthToken else { return }
        router.on(.POST, twilioPath, maxBodySize: 16 << 10, body: .any, .async { request, _ in
            let url = publicURL() + twilioPath
            let report: DeliveryStatusReport?
            do {
                report = try TwilioStatusCallback.verify(url: url, body: request.body, signature: request.headers["X-Twilio-Signature"], authToken: twilioAuthToken)
            } catch {
                return Response(status: 403)
            }
            if let report { try await engine.recordDeliveryReceipt(provider: report.provider, messageId: report.messageId, delivered: report.delivered) }
            return Response(status: 204)
        })
    }
}
