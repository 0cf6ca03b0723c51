import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// App Store Server Notifications V2 at `/webhooks/apple`, outside `/api` (seed 000 §07, step 4).
/// 200 once recorded (also for a repeat); 400 only for a payload that does not verify, since
/// Apple retries 5xx and a database outage must not lose a notification.
enum AppleWebhookRoutes {
    static func register(on router: Router, commerce: CommerceEngine, logger: Logger) {
        // Apple retries a 5xx and drops a 4xx: only a notification that can never be taken
        // (unverifiable, malformed, refused at the edge) gets a 4xx; any other failure is a 500.
        router.renderErrors(under: "/webhooks") { error, path, context in render(error, path: path, context: context, logger: logger) }
        struct Outcome: Encodable { let outcome: String }
        struct SignedNotification: Decodable { let signedPayload: String }
        router.on(OperatorEndpoints.appleNotification, SignedInBody()) { request, _, _ in
            guard let signed = (try? request.decodeBody(SignedNotification.self, unknownKeys: .ignore))?.signedPayload else {
                throw DatacoveError.validation("The body must be {\"signedPayload\": \"<JWS>\"}.")
            }
            return try .json(Outcome(outcome: try await commerce.receiveNotification(signedPayload: signed).rawValue))
        }
    }
}

extension AppleWebhookRoutes {
    static func render(_ error: any Error, path: String, context: RequestContext, logger: Logger) -> Response {
        switch error {
        case let refused as ReceiptRefused: refused.response(context: context)
        case let refused as PushRefused: refused.response(context: context)
        case is NotificationRejected, is DatacoveError, is HTTPError: DatacoveError.render(error, path: path, context: context, logger: logger)
        // Pub/Sub retries any failure, so Google's pushes answer in the dialect's terms (503 when Google was unreachable).
        case is PurchaseError where path.hasPrefix(OperatorEndpoints.googlePlayNotification.template):
            DatacoveError.render(error, path: path, context: context, logger: logger)
        default: DatacoveError.render(WebhookFailure(underlying: error), path: path, context: context, logger: logger)
        }
    }
}

/// A failure of the webhook that is not the notification's fault; no mapping knows it, so it
/// renders as a logged 500 that Apple retries.
private struct WebhookFailure: Error {
    let underlying: any Error
}
