import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// App Store Server Notifications V2 at `/webhooks/apple`, outside `/api` (seed 000 §07, step 4).
/// 200 once recorded (also for a repeat); 400 only for a payload that does not verify, since
/// Apple retries 5xx and a database outage must not lose a notification.
enum AppleWebhookRoutes {
    static func register(on router: Router, commerce: CommerceEngine, logger: Logger) {
        router.renderErrors(under: "/webhooks") { error, path, context in
            var response = DatacoveError(status: error.status, code: DatacoveError.code(of: error), message: error.message, path: path)
                .response(context: context)
            for (name, value) in error.headers { response.headers.set(name, value) }
            return response
        }
        router.post("/webhooks/apple", .async { request, context in
            do {
                guard case .object(let body)? = try? JSONValue(parsing: request.body),
                      let signed = body["signedPayload"]?.string
                else {
                    throw DatacoveError(status: 400, code: "VALIDATION_FAILED", message: "The body must be {\"signedPayload\": \"<JWS>\"}.",
                                        path: request.rawPath)
                }
                let outcome = try await commerce.receiveNotification(signedPayload: signed)
                return try .json(["outcome": JSONValue.string(outcome.rawValue)])
            } catch let rejected as NotificationRejected {
                return DatacoveError(status: 400, code: "NOTIFICATION_INVALID", message: "The notification could not be verified (\(rejected.reason)).",
                                     path: request.rawPath).response(context: context)
            } catch {
                return DatacoveError.from(error, path: request.rawPath, context: context, log: { logger.error($0) }).response(context: context)
            }
        })
    }
}
