import GatehouseHTTP

/// Every document Gatehouse serves, and the routes that are in none of them, with the reason.
/// The route coverage test holds the router to this list both ways.
enum OpenAPIDocuments {
    static let all: [Document] = [
        VerificationDocument.document,
        DatacoveDocument.document,
        SubscriptionFlowDocument.document,
        PossessionDocument.document,
        ManagedAPIsDocument.document,
        AdminDocument.document,
    ]

    /// Routes on purpose in no document: not a dialect's API, or present only in some setups.
    static let undocumented: [(prefix: String, reason: String)] = [
        ("/healthz", "process health, not an API of a dialect"),
        ("/readyz", "database health, not an API of a dialect"),
        ("/metrics", "Prometheus text, not JSON"),
        ("/openapi", "these documents themselves"),
        ("/dev/", "development mode only: helpers for local work"),
        ("/webhooks/", "called by Apple and SMS providers with their own signatures, not by apps"),
        ("/.well-known/", "Apple's association file, read by iOS for a host (its format is Apple's, not a dialect's)"),
    ]
}
