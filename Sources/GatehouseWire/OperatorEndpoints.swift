import Foundation

/// What is not any vendor's dialect: health, metrics, the OpenAPI documents, the development
/// helpers, and the callbacks Apple and the SMS providers make with their own signatures.
public enum OperatorEndpoints {
    static func endpoint<Body, Reply>(
        _ method: RequestMethod, _ path: String, _ credential: Credential = .none, envelope: ErrorEnvelope = .admin, id: String, _ summary: String
    ) -> Endpoint<Body, Reply> {
        Endpoint(method, path, credential: credential, envelope: envelope, id: id, summary: summary)
    }

    public static let healthz: Endpoint<NoBody, RawBytes> = endpoint(.GET, "/healthz", id: "healthz", "The process answers")
    public static let readyz: Endpoint<NoBody, RawBytes> = endpoint(.GET, "/readyz", id: "readyz", "The database answers")
    public static let metrics: Endpoint<NoBody, RawBytes> =
        endpoint(.GET, "/metrics", .metricsToken, id: "metrics", "Prometheus text: requests, counters, outbound calls")
    public static let openAPIIndex: Endpoint<NoBody, RawBytes> = endpoint(.GET, "/openapi", id: "openAPIIndex", "The OpenAPI documents served")
    public static let openAPIDocument: Endpoint<NoBody, RawBytes> =
        endpoint(.GET, "/openapi/:document", id: "openAPIDocument", "One OpenAPI document (`<name>.json`)")
    public static let developmentCallback: Endpoint<RawBytes, RawBytes> = endpoint(
        .POST, "/dev/verification-callback", .applicationKey, envelope: .didww, id: "developmentCallback",
        "Development only: a request callback that approves every signed start")
    public static let appleNotification: Endpoint<RawBytes, RawBytes> = endpoint(
        .POST, "/webhooks/apple", .signedPayload, envelope: .datacove, id: "appleNotification", "App Store Server Notifications V2")
    public static let googlePlayNotification: Endpoint<GooglePlayWire.Push, GooglePlayWire.PushOutcome> = endpoint(
        .POST, "/webhooks/google-play", .googlePush, envelope: .datacove, id: "googlePlayNotification",
        "Google Play real-time developer notifications (a Pub/Sub push)")
    public static let twilioReceipt: Endpoint<RawBytes, NoBody> =
        endpoint(.POST, "/webhooks/delivery/twilio", .providerSignature, id: "twilioReceipt", "Twilio's status callback")
    public static let vonageReceipt: Endpoint<RawBytes, NoBody> =
        endpoint(.POST, "/webhooks/delivery/vonage", .providerSignature, id: "vonageReceipt", "Vonage's call events and receipts")
    public static let vonageReceiptByQuery: Endpoint<NoBody, NoBody> =
        endpoint(.GET, "/webhooks/delivery/vonage", .providerSignature, id: "vonageReceiptByQuery", "Vonage's SMS receipts as a query string")

    public static let appleAppSiteAssociation: Endpoint<NoBody, RawBytes> = endpoint(
        .GET, "/.well-known/apple-app-site-association", id: "appleAppSiteAssociation",
        "The webcredentials of the tenant whose passkey relying party the request's host names")

    public static var all: [EndpointDescription] {
        [
            appleAppSiteAssociation.described, healthz.described, readyz.described, metrics.described, openAPIIndex.described, openAPIDocument.described, developmentCallback.described,
            appleNotification.described, googlePlayNotification.described, twilioReceipt.described, vonageReceipt.described, vonageReceiptByQuery.described,
        ]
    }
}
