import GatehouseCommerceEngine

/// How a commerce refusal reads in the dialects' messages.
extension CommerceError {
    var text: String {
        switch reason {
        case .noSuch(.appStoreConfiguration): "no App Store configuration"
        case .noSuch(.googlePlayConfiguration): "no Google Play configuration"
        case .noSuch(.accountToken): "no such account token"
        case .noSuch(.plan): "no such plan"
        case .field(let field, let rule): rule.sentence(field)
        case .appStore(.privateKey): "privateKey must be the contents of the App Store Connect .p8 file"
        case .appStore(.bundleID): "bundleId is not a bundle identifier"
        case .appStore(.appAppleID): "appAppleId must be the app's numeric Apple ID"
        case .appStore(.xcodeCertificate): "xcodeCertificatePEM must be the PEM certificate exported from Xcode (EC P-256)"
        case .googlePlay(.serviceAccountKey):
            "serviceAccountKey must be a service account's JSON key file (type service_account, client_email, an RSA private_key)"
        case .googlePlay(.packageName): "packageName is not an Android application id"
        case .googlePlay(.subscriptionID): "platformProductIds.google must be a Play subscription id, or subscriptionId:basePlanId"
        case .noSealingKey: "this server has no store-secret-key, so it cannot keep a service account key"
        case .sandboxOnly(let field): "\(field) is refused on production tenants"
        case .productListedTwice: "each platformProductId may appear once"
        case .productTaken: "a plan already uses this App Store product id"
        case .googleSubscriptionTaken: "a plan already uses this Google Play subscription"
        case .bodyNotAnObject: "The body must be a JSON object."
        case .unknownField(let name): "unknown field: \(name)"
        }
    }
}
