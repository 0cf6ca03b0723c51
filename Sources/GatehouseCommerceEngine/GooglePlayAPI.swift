import Foundation
import GatehouseCore
import GatehouseFormats

/// A subscription purchase as `purchases.subscriptionsv2.get` returns it (androidpublisher v3,
/// `SubscriptionPurchaseV2`): the fields entitlements are decided on. The state Google reports
/// is the only truth; a notification is only a reason to read it again.
struct PlaySubscription: Sendable, Equatable {
    /// `SUBSCRIPTION_STATE_…` without the prefix: `ACTIVE`, `IN_GRACE_PERIOD`, `CANCELED`, …
    let state: String
    let linkedPurchaseToken: String?
    let acknowledged: Bool
    /// `externalAccountIdentifiers.obfuscatedExternalAccountId`: what the app tagged the purchase with.
    let obfuscatedAccountID: String?
    let isTest: Bool
    let lineItems: [LineItem]

    /// One product of the subscription (add-ons make several); access comes from each.
    struct LineItem: Sendable, Equatable {
        let productID: String
        let expiry: Date?
        let latestOrderID: String?
        let basePlanID: String?
        let autoRenewing: Bool?
    }
}

/// A one-time product purchase as `purchases.products.get` returns it (`ProductPurchase`).
struct PlayProductPurchase: Sendable, Equatable {
    /// 0 purchased, 1 canceled, 2 pending.
    let purchaseState: Int
    let consumed: Bool
    let acknowledged: Bool
    let orderID: String?
    let obfuscatedAccountID: String?
    /// 0 test, 1 promo, 2 rewarded; nil for a purchase paid with money.
    let purchaseType: Int?
    let quantity: Int
}

/// One entry of `purchases.voidedpurchases.list` (`VoidedPurchase`).
struct PlayVoidedPurchase: Sendable, Equatable {
    let purchaseToken: String
    let orderID: String?
    let voidedAt: Date?
}

/// The Play Developer API calls of the Google Play store, as the tenant's service account
/// (`GoogleAccessTokens`), on the server's outbound client.
struct GooglePlayAPI: Sendable {
    static let defaultBaseURL = URL(string: "https://androidpublisher.googleapis.com")!

    let baseURL: URL
    let packageName: String
    /// The bearer to send; given the one the API just refused, a fresh one.
    let token: @Sendable (_ refused: String?) async throws -> String
    let http: any OutboundHTTP

    func subscription(purchaseToken: String) async throws -> PlaySubscription {
        let object = try await call("GET", ["subscriptionsv2", "tokens", purchaseToken])
        let prefix = "SUBSCRIPTION_STATE_"
        guard let state = object["subscriptionState"]?.string, state.hasPrefix(prefix) else {
            throw GoogleAPIError.invalidResponse("no subscriptionState")
        }
        let items = try (object["lineItems"]?.array ?? []).map { value -> PlaySubscription.LineItem in
            guard let item = value.object, let product = item["productId"]?.string else { throw GoogleAPIError.invalidResponse("a line item without productId") }
            return PlaySubscription.LineItem(
                productID: product, expiry: try item["expiryTime"]?.string.map(Self.time), latestOrderID: item["latestSuccessfulOrderId"]?.string,
                basePlanID: item["offerDetails"]?.object?["basePlanId"]?.string, autoRenewing: item["autoRenewingPlan"]?.object?["autoRenewEnabled"]?.bool)
        }
        return PlaySubscription(
            state: String(state.dropFirst(prefix.count)), linkedPurchaseToken: object["linkedPurchaseToken"]?.string,
            acknowledged: object["acknowledgementState"]?.string == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
            obfuscatedAccountID: object["externalAccountIdentifiers"]?.object?["obfuscatedExternalAccountId"]?.string,
            isTest: object["testPurchase"] != nil, lineItems: items)
    }

    func product(_ productID: String, purchaseToken: String) async throws -> PlayProductPurchase {
        let object = try await call("GET", ["products", productID, "tokens", purchaseToken])
        guard let state = object["purchaseState"]?.int else { throw GoogleAPIError.invalidResponse("no purchaseState") }
        return PlayProductPurchase(
            purchaseState: state, consumed: object["consumptionState"]?.int == 1, acknowledged: object["acknowledgementState"]?.int == 1,
            orderID: object["orderId"]?.string, obfuscatedAccountID: object["obfuscatedExternalAccountId"]?.string,
            purchaseType: object["purchaseType"]?.int, quantity: object["quantity"]?.int ?? 1)
    }

    /// A page of `purchases.voidedpurchases.list`: purchases Google saw voided since `since`
    /// (it keeps 30 days), subscriptions included (`type=1`); the next page's token, if any.
    func voidedPurchases(since: Date, pageToken: String?) async throws -> (voided: [PlayVoidedPurchase], next: String?) {
        var query = [("startTime", String(Int64(since.timeIntervalSince1970 * 1000))), ("type", "1"), ("maxResults", "1000")]
        if let pageToken { query.append(("token", pageToken)) }
        let object = try await call("GET", ["voidedpurchases"], query: query)
        let voided = (object["voidedPurchases"]?.array ?? []).compactMap { value -> PlayVoidedPurchase? in
            guard let item = value.object, let token = item["purchaseToken"]?.string else { return nil }
            return PlayVoidedPurchase(
                purchaseToken: token, orderID: item["orderId"]?.string, voidedAt: GoogleTime.millis(item["voidedTimeMillis"]?.string.flatMap(Double.init)))
        }
        return (voided, object["tokenPagination"]?.object?["nextPageToken"]?.string)
    }

    /// `purchases.subscriptions.acknowledge`; Google refunds a purchase left unacknowledged for three days.
    func acknowledgeSubscription(_ productID: String, purchaseToken: String) async throws {
        _ = try await call("POST", ["subscriptions", productID, "tokens", purchaseToken], verb: "acknowledge", body: [:])
    }

    /// `purchases.products.acknowledge`.
    func acknowledgeProduct(_ productID: String, purchaseToken: String) async throws {
        _ = try await call("POST", ["products", productID, "tokens", purchaseToken], verb: "acknowledge", body: [:])
    }

    /// `purchases.products.consume` (which acknowledges too): the buyer can buy the product again.
    func consumeProduct(_ productID: String, purchaseToken: String) async throws {
        _ = try await call("POST", ["products", productID, "tokens", purchaseToken], verb: "consume")
    }

    /// RFC 3339 with or without fractional seconds, as Google's JSON writes a `Timestamp`.
    static func time(_ text: String) throws -> Date {
        guard let date = WireDate.parse(text) else { throw GoogleAPIError.invalidResponse("a time that is not RFC 3339") }
        return date
    }

    /// A purchase token or product id as Google issues them: 1 to 2048 of `A-Z a-z 0-9 . _ -`,
    /// and never `.` or `..`, which the transport would fold into a different path.
    static func isPathSegment(_ text: String) -> Bool {
        (1...2048).contains(text.utf8.count) && text != "." && text != ".."
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// `path` under the package's purchases, each segment escaped, then `:verb` (a custom method).
    /// A token or product id Google could not have issued is not sent: no such purchase.
    private func call(
        _ method: String, _ path: [String], verb: String? = nil, query: [(String, String)] = [], body: [String: String]? = nil
    ) async throws -> [String: JSONValue] {
        guard path.allSatisfy(Self.isPathSegment) else { throw GoogleAPIError.unknownPurchase }
        let bearer = try await token(nil)
        do {
            return try await call(method, path, verb: verb, query: query, body: body, bearer: bearer)
        } catch GoogleAPIError.refused(status: 401) {
            // A token revoked before it expired (a key disabled and enabled again, say): once more with a fresh one.
            return try await call(method, path, verb: verb, query: query, body: body, bearer: try await token(bearer))
        }
    }

    private func call(
        _ method: String, _ path: [String], verb: String?, query: [(String, String)], body: [String: String]?, bearer: String
    ) async throws -> [String: JSONValue] {
        let segments = ["androidpublisher", "v3", "applications", packageName, "purchases"] + path
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let search = query.isEmpty ? "" : "?" + PercentEncoding.form(query)
        let url = URL(string: base + "/" + segments.map(PercentEncoding.escaped).joined(separator: "/") + (verb.map { ":" + $0 } ?? "") + search)!
        var request = OutboundRequest(url: url, timeoutInterval: 15)
        request.target = .googlePlay
        request.httpMethod = method
        request.maxResponseBytes = 1 << 20
        request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await GoogleAPIError.send(request, on: http)
        switch response.statusCode {
        case 200...299:
            if data.isEmpty { return [:] }
            guard let object = (try? JSONReader.parse(data))?.object else { throw GoogleAPIError.invalidResponse("not a JSON object") }
            return object
        case 404, 410: throw GoogleAPIError.unknownPurchase
        case 429, 500...599: throw GoogleAPIError.unavailable(status: response.statusCode)
        default: throw GoogleAPIError.refused(status: response.statusCode)
        }
    }
}
