import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// Google Play's real-time developer notifications at `/webhooks/google-play`: a Pub/Sub push
/// whose `Authorization: Bearer` is a Google-signed token for the tenant's push subscription.
/// Pub/Sub delivers again whatever is not answered 2xx: a forged or unverifiable push is a bare
/// 401 that records nothing; a push Google signed for a package no tenant has, or of a kind
/// this server does not act on, is taken (and logged or recorded), or it would come back
/// forever; a failure to reach Google is a 503, so it comes back later.
enum GooglePlayWebhookRoutes {
    static func register(on router: Router, commerce: CommerceEngine, logger: Logger) {
        router.on(OperatorEndpoints.googlePlayNotification, GooglePushAuthenticator(commerce: commerce)) { _, _, push in
            guard let tenantID = push.tenantID else {
                let package = push.notification.packageName
                logger.info("google play notification for a package no tenant has", ["package": package.count <= 255 ? package : "(too long)"])
                return try .json(GooglePlayWire.PushOutcome(outcome: "ignored"))
            }
            let outcome = try await commerce.receiveGoogleNotification(push.notification, messageID: push.messageID, tenantID: tenantID)
            return try .json(GooglePlayWire.PushOutcome(outcome: outcome.rawValue))
        }
    }
}

/// A push whose token holds for the tenant of the package it names (`tenantID` nil: no tenant
/// has that package).
struct GooglePush: Sendable {
    let tenantID: String?
    let messageID: String
    let notification: GooglePlayNotification
}

/// Reads the push (a body that is not one is a 400) and checks its token against the tenant
/// its notification's package belongs to.
struct GooglePushAuthenticator: Authenticator {
    let commerce: CommerceEngine
    let credential = Credential.googlePush.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> GooglePush {
        guard let push = try? request.decodeBody(GooglePlayWire.Push.self, unknownKeys: .ignore),
              let messageID = push.message.messageId ?? push.message.message_id,
              let data = push.message.data.flatMap({ Data(base64Encoded: $0) }),
              let notification = GooglePlayNotification.parse(data)
        else {
            throw DatacoveError.validation("The body must be a Pub/Sub push of a Google Play developer notification.")
        }
        do {
            let tenantID = try await commerce.authorizeGooglePush(bearer: request.bearerToken, packageName: notification.packageName)
            return GooglePush(tenantID: tenantID, messageID: messageID, notification: notification)
        } catch PushTokenRefusal.certificatesUnavailable {
            throw DatacoveError(status: 503, code: "STORE_UNAVAILABLE", message: "Google's certificates could not be fetched. Try again.")
        } catch is PushTokenRefusal {
            throw PushRefused()
        }
    }
}

/// A push whose token does not hold: a bare 401, nothing recorded.
struct PushRefused: HTTPResponseError {
    func response(context: RequestContext) -> Response { Response(status: 401) }
}
