import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehouseWire
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
    static let twilioPath = OperatorEndpoints.twilioReceipt.template
    static let vonagePath = OperatorEndpoints.vonageReceipt.template

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
        @Sendable func record(_ report: DeliveryStatusReport?) async throws -> Response {
            if let report { try await engine.recordDeliveryReceipt(provider: report.provider, messageId: report.messageId, delivered: report.delivered) }
            return Response(status: 204)
        }
        if let twilioAuthToken {
            let signed = ReceiptSignature { request in
                try TwilioStatusCallback.verify(
                    url: publicURL() + twilioPath, body: request.body, signature: request.headers["X-Twilio-Signature"], authToken: twilioAuthToken)
            }
            router.on(OperatorEndpoints.twilioReceipt, signed, maxBodySize: 16 << 10, body: .any) { _, _, report in try await record(report) }
        }
        if let vonage {
            let signed = ReceiptSignature { request in
                if request.headers["Authorization"] != nil {
                    return try VonageSignedWebhook.verify(
                        authorization: request.headers["Authorization"], body: request.body, signatureSecret: vonage.secret, now: clock.now,
                        applicationId: vonage.applicationId)
                }
                return try VonageSMSSignature.verify(body: request.body, signatureSecret: vonage.secret, method: vonage.method, now: clock.now)
            }
            router.on(OperatorEndpoints.vonageReceipt, signed, maxBodySize: 16 << 10, body: .any) { _, _, report in try await record(report) }
            // Vonage's SMS receipts come as a GET with the query string unless the dashboard says POST.
            let signedQuery = ReceiptSignature { request in
                try VonageSMSSignature.verify(parameters: request.query, signatureSecret: vonage.secret, method: vonage.method, now: clock.now)
            }
            router.on(OperatorEndpoints.vonageReceiptByQuery, signedQuery) { _, _, report in try await record(report) }
        }
    }
}

/// A provider's receipt whose signature holds: what it reports (`nil` for a status that is not
/// final, taken and ignored). Anything unsigned, tampered or stale is `ReceiptRefused`, a bare 403.
struct ReceiptSignature: InlineAuthenticator {
    typealias Principal = DeliveryStatusReport?
    let verify: @Sendable (Request) throws -> DeliveryStatusReport?
    let credential = Credential.providerSignature.rawValue

    func authenticateInline(_ request: Request, context: RequestContext) throws -> DeliveryStatusReport? {
        do {
            return try verify(request)
        } catch {
            throw ReceiptRefused()
        }
    }
}

/// A receipt whose signature does not hold: a bare 403, nothing recorded, whichever renderer
/// owns `/webhooks`.
struct ReceiptRefused: HTTPResponseError {
    func response(context: RequestContext) -> Response { Response(status: 403) }
}
