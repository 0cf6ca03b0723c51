import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// Where the server reaches Google. Server settings, so tests and proxies point them elsewhere.
public struct GoogleEndpoints: Sendable, Equatable {
    /// The Play Developer API (`androidpublisher`).
    public var playAPI: URL
    /// The OAuth token endpoint of the service account's JWT bearer grant.
    public var token: URL
    /// Google's certificates of the keys that sign Pub/Sub push tokens.
    public var certificates: URL

    /// Google's own endpoints wherever one is nil.
    public init(playAPI: URL? = nil, token: URL? = nil, certificates: URL? = nil) {
        self.playAPI = playAPI ?? GooglePlayAPI.defaultBaseURL
        self.token = token ?? GoogleAccessTokens.defaultTokenURL
        self.certificates = certificates ?? GooglePushTokens.defaultCertificatesURL
    }

    public static let live = GoogleEndpoints()
}

/// A tenant's Google Play connection as the engine uses it.
struct GooglePlayConnection: Sendable {
    let packageName: String
    /// Test purchases are refused.
    let production: Bool
    let api: GooglePlayAPI
}

/// A purchase token as the tables keep it: its SHA-256 in hex keys the rows (a token may be
/// 2 KB), the token itself is kept once, for the calls that acknowledge and consume it.
enum GooglePurchaseToken {
    static func hash(_ token: String) -> String { SHA256.hash(Data(token.utf8)).hexString }

    /// The chain key of a subscription's line item, in `commerce_subscriptions.original_transaction_id`.
    static func lineKey(_ tokenHash: String, productID: String) -> String { "google:" + tokenHash + ":" + productID }

    /// `commerce_purchases.original_transaction_id` of a one-time product's purchase.
    static func purchaseKey(_ tokenHash: String) -> String { "google:" + tokenHash }
}

extension CommerceEngine {
    /// The tenant's Play API client, or `STORE_NOT_CONFIGURED`.
    func googlePlayConnection(tenantID: String) async throws -> GooglePlayConnection {
        let (config, key) = try await database.read { db in
            (try Self.googlePlayConfig(db.queryOne("SELECT * FROM commerce_google_play_configs WHERE tenant_id = ?", tenantID)),
             try self.serviceAccountKey(db, tenantID: tenantID))
        }
        guard let config, let package = config.packageName, config.hasServiceAccountKey else {
            throw PurchaseError(.storeNotConfigured, .google(.notSetUp))
        }
        guard let key else {
            // Sealed under another store-secret-key than this server's: the operator must save it again.
            environment.logger.error("google play service account key does not open under this server's store-secret-key", ["tenant": tenantID])
            throw PurchaseError(.storeNotConfigured, .google(.keyUnreadable))
        }
        let tokens = googleTokens
        let api = GooglePlayAPI(
            baseURL: google.playAPI, packageName: package,
            token: { refused in try await tokens.token(tenantID: tenantID, key: key, replacing: refused) }, http: environment.http)
        return GooglePlayConnection(packageName: package, production: config.production, api: api)
    }

    /// Runs a Play API call, turning Google's failures into the purchase errors the dialects word.
    func askGoogle<T: Sendable>(tenantID: String, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as GoogleAPIError {
            environment.logger.info("google play call failed", ["tenant": tenantID, "error": error.description])
            switch error {
            // Google answers a token it never issued (or issued for another app) 400 Invalid Value as often as 404.
            case .unknownPurchase, .refused(status: 400), .refused(status: 404), .refused(status: 410):
                throw PurchaseError(.purchaseInvalid, .google(.unknownToStore))
            case .grantRefused, .refused(status: 401), .refused(status: 403): throw PurchaseError(.storeNotConfigured, .google(.accessRefused))
            case .refused: throw PurchaseError(.purchaseInvalid, .google(.unknownToStore))
            // An answer that will not change by asking again: refused, never retried.
            case .invalidResponse: throw PurchaseError(.purchaseInvalid, .google(.unreadable))
            case .network, .unavailable: throw PurchaseError(.storeUnavailable, .google(.unreachable))
            }
        }
    }

    /// Verifies a reported Play purchase and grants what it bought, once: a one-time product's
    /// credits once per order, a subscription's plans by its line items. Google's answer is
    /// the only truth; the report names only the token and the product.
    func verifyGooglePurchase(tenantID: String, accountID: String, _ report: PurchaseReport) async throws -> PurchaseOutcome {
        guard let token = report.purchaseToken, GooglePlayAPI.isPathSegment(token) else {
            throw PurchaseError(.purchaseInvalid, .google(.purchaseTokenMalformed))
        }
        let productID = report.platformProductId
        let (packages, plans) = try await database.read { db in
            (try Self.creditPackages(db, tenantID, provider: "google"), try Self.plans(db, tenantID))
        }
        let package = packages.first { $0.platformProductId == productID }
        guard package != nil || plans.contains(where: { $0.google?.subscriptionID == productID }) else {
            throw PurchaseError(.productUnknown, .productNotSold)
        }
        let connection = try await googlePlayConnection(tenantID: tenantID)
        if let package {
            return try await grantGoogleCredits(tenantID: tenantID, accountID: accountID, connection: connection, package: package, token: token)
        }
        return try await linkGoogleSubscription(
            tenantID: tenantID, holder: accountID, connection: connection, productID: productID, token: token, plans: plans,
            transfer: report.transferToCurrentAccount ? .whenAsked : .automaticOnly)
    }
}
