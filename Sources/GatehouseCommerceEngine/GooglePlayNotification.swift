import Foundation
import GatehouseFormats

/// A real-time developer notification: the JSON a Pub/Sub push carries base64-encoded in
/// `message.data`. It is only a reason to read the purchase from Google again.
public struct GooglePlayNotification: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// `subscriptionNotification`: 1 RECOVERED … 12 REVOKED, 13 EXPIRED … 20 PENDING_PURCHASE_CANCELED.
        case subscription(type: Int, purchaseToken: String)
        /// `oneTimeProductNotification`: 1 PURCHASED, 2 CANCELED.
        case oneTimeProduct(type: Int, purchaseToken: String, productID: String)
        /// `voidedPurchaseNotification`: refunded, charged back or revoked; `productType` 1 subscription,
        /// 2 one-time; `refundType` 1 full, 2 a partial refund of some of the quantity.
        case voided(purchaseToken: String, orderID: String?, productType: Int?, refundType: Int?)
        /// `testNotification`, sent from Play Console.
        case test
        /// A kind this server does not act on (one Google added, or a member without its fields): taken and recorded.
        case other
    }

    public let packageName: String
    /// `eventTimeMillis`, a number or a string; nil when missing or out of range.
    public let eventTime: Date?
    public let event: Event

    /// The notification in `data`, or nil when it is not one (not an object with a `packageName`).
    public static func parse(_ data: Data) -> GooglePlayNotification? {
        guard let object = (try? JSONReader.parse(data))?.object, let package = object["packageName"]?.string else { return nil }
        let eventTime = GoogleTime.millis(object["eventTimeMillis"]?.number ?? object["eventTimeMillis"]?.string.flatMap(Double.init))
        return GooglePlayNotification(packageName: package, eventTime: eventTime, event: event(object))
    }

    private static func event(_ object: [String: JSONValue]) -> Event {
        if let member = object["subscriptionNotification"]?.object {
            guard let type = member["notificationType"]?.int, let token = member["purchaseToken"]?.string else { return .other }
            return .subscription(type: type, purchaseToken: token)
        }
        if let member = object["oneTimeProductNotification"]?.object {
            guard let type = member["notificationType"]?.int, let token = member["purchaseToken"]?.string, let sku = member["sku"]?.string
            else { return .other }
            return .oneTimeProduct(type: type, purchaseToken: token, productID: sku)
        }
        if let member = object["voidedPurchaseNotification"]?.object {
            guard let token = member["purchaseToken"]?.string else { return .other }
            return .voided(purchaseToken: token, orderID: member["orderId"]?.string, productType: member["productType"]?.int,
                           refundType: member["refundType"]?.int)
        }
        return object["testNotification"]?.object != nil ? .test : .other
    }

    /// The type's name as Google's reference writes it, for the record.
    var typeName: String {
        switch event {
        case .subscription(let type, _): "SUBSCRIPTION_" + (Self.subscriptionTypes[type] ?? String(type))
        case .oneTimeProduct(let type, _, _): "ONE_TIME_PRODUCT_" + (type == 1 ? "PURCHASED" : type == 2 ? "CANCELED" : String(type))
        case .voided: "VOIDED_PURCHASE"
        case .test: "TEST"
        case .other: "OTHER"
        }
    }

    static let subscriptionTypes: [Int: String] = [
        1: "RECOVERED", 2: "RENEWED", 3: "CANCELED", 4: "PURCHASED", 5: "ON_HOLD", 6: "IN_GRACE_PERIOD", 7: "RESTARTED",
        8: "PRICE_CHANGE_CONFIRMED", 9: "DEFERRED", 10: "PAUSED", 11: "PAUSE_SCHEDULE_CHANGED", 12: "REVOKED", 13: "EXPIRED",
        17: "ITEMS_CHANGED", 18: "CANCELLATION_SCHEDULED", 19: "PRICE_CHANGE_UPDATED", 20: "PENDING_PURCHASE_CANCELED",
        22: "PRICE_STEP_UP_CONSENT_UPDATED",
    ]
    static let revoked = 12
}

/// Google's times in milliseconds since 1970, as its JSON writes them (a number or a string).
enum GoogleTime {
    /// The moment, or nil when missing or outside 1970–2100.
    static func millis(_ value: Double?) -> Date? {
        value.flatMap { (0...4_102_444_800_000).contains($0) ? Date(timeIntervalSince1970: $0 / 1000) : nil }
    }
}
