import GatehouseCommerceEngine

/// How a purchase refusal reads in the dialects' messages.
extension PurchaseError {
    /// The seed's words for a gated workflow without a trial or plan (seed 000 §08).
    static let entitlementInactiveText = "Your trial has ended and no active subscription was found for this service."
    /// The same refusal for an account whose trial never began.
    static let noEntitlementText = "No trial or active subscription covers this service: start the trial or subscribe."

    var text: String {
        switch reason {
        case .storeNotSetUp: "The App Store connection of this app is not set up."
        case .signedTransactionMissing: "Send the signed transaction."
        case .unverifiable: "The transaction could not be verified."
        case .nothingToLookUpWith: "Send signedTransaction, or set up the App Store Server API key."
        case .storeUnreachable: "The App Store could not be reached. Try again."
        case .unknownToStore: "The App Store does not know this transaction."
        case .collided(.notification): "The notification collided with concurrent changes; retry."
        case .collided(.link): "The purchase changed while it was being linked. Try again."
        case .noTrial: "No trial is available for this account."
        case .entitlementInactive: Self.entitlementInactiveText
        case .linkedElsewhere(.purchaseToAccount): "This purchase belongs to another account."
        case .linkedElsewhere(.purchaseToWorkspace): "This purchase belongs to another workspace."
        case .linkedElsewhere(.planToAccount): "This plan belongs to another account."
        case .noPurchaseDate: "The transaction has no purchase date."
        case .noExpiry: "The subscription transaction has no expiry."
        case .platformUnknown: "platform must be apple or google"
        case .google(.notSetUp): "The Google Play connection of this app is not set up."
        case .google(.keyUnreadable): "The Google Play service account key of this app cannot be read; save it again."
        case .google(.accessRefused): "Google Play refused this app's service account."
        case .google(.purchaseTokenMalformed): "purchaseToken must be the Google Play purchase token"
        case .google(.testPurchase): "Test purchases are not accepted by this app."
        case .google(.pending): "The purchase is still pending."
        case .google(.unreachable): "Google Play could not be reached. Try again."
        case .google(.unknownToStore): "Google Play does not know this purchase token."
        case .google(.unreadable): "Google Play's answer about this purchase could not be read."
        case .google(.notAndroid): "Google Play purchases are reported from an Android app."
        case .transactionIDMalformed: "transactionId must be the App Store transaction id"
        case .productMismatch: "The transaction does not match the reported product."
        case .revoked: "This purchase was refunded or revoked."
        case .creditPackageNotConsumable: "A credit package must be a consumable."
        case .planTypeMismatch(let interval, let type): "A \(interval) plan must be a \(type)."
        case .productNotSold: "This product is not sold here."
        }
    }
}
