import Foundation

extension SignedDataVerifier {
    /// Verifies an App Store Server Notification V2 and checks its bundle id, environment and
    /// (in Production, when configured) app Apple id; nested JWS are left for `verifyNotificationContents`.
    public func verifyNotification(_ jws: String) throws -> NotificationPayload {
        let verified = try verifySignedData(jws)
        let identity = try decode(NotificationIdentity.self, from: verified.payload).app
        guard identity?.bundleId == bundleId else {
            throw AppleVerificationError(.wrongBundleId, "notification for \(identity?.bundleId ?? "no bundle id")")
        }
        let environment = try checkEnvironment(identity?.environment, of: verified)
        if environment == .production, let appAppleId, identity?.appAppleId != appAppleId {
            throw AppleVerificationError(.wrongAppAppleId, "notification for app \(identity?.appAppleId.map(String.init) ?? "(none)")")
        }
        return try decode(NotificationPayload.self, from: verified.payload)
    }

    /// Verifies a notification and each nested signed transaction and renewal info (all three layers).
    public func verifyNotificationContents(_ jws: String) throws -> VerifiedNotification {
        let notification = try verifyNotification(jws)
        let transaction = try notification.data?.signedTransactionInfo.map(verifyTransaction)
        let renewalInfo = try notification.data?.signedRenewalInfo.map(verifyRenewalInfo)
        // Each layer is signed separately; a nested payload from another environment would be a
        // replay from sandbox into production.
        let outer = notification.data?.environment
        for inner in [transaction?.environment, renewalInfo?.environment].compactMap({ $0 }) where inner != outer {
            throw AppleVerificationError(.wrongEnvironment, "nested \(inner.rawValue) data in a notification for \(outer?.rawValue ?? "(none)")")
        }
        return VerifiedNotification(notification: notification, transaction: transaction, renewalInfo: renewalInfo)
    }
}

/// A notification whose outer and nested signed data all verified.
public struct VerifiedNotification: Sendable, Equatable {
    /// The outer notification.
    public let notification: NotificationPayload
    /// `data.signedTransactionInfo`, verified and decoded.
    public let transaction: TransactionPayload?
    /// `data.signedRenewalInfo`, verified and decoded.
    public let renewalInfo: RenewalInfoPayload?
}

/// Where a notification names its app: `data`, `summary`, `appData` or `externalPurchaseToken`.
struct NotificationIdentity: Decodable {
    struct App: Decodable {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
        /// Only in `data`: the nested transaction, still unverified.
        var signedTransactionInfo: String? = nil
    }

    struct ExternalToken: Decodable {
        let bundleId: String?
        let appAppleId: Int64?
        let externalPurchaseId: String?
    }

    let data: App?
    let summary: App?
    let appData: App?
    let externalPurchaseToken: ExternalToken?

    var app: App? {
        if let found = data ?? summary ?? appData { return found }
        // External purchase tokens carry no environment; Apple's libraries read it from the id prefix.
        return externalPurchaseToken.map { token in
            App(
                bundleId: token.bundleId, appAppleId: token.appAppleId,
                environment: token.externalPurchaseId?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production")
        }
    }
}
