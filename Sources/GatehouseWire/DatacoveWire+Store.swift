extension DatacoveWire {
    /// The tenant's App Store connection, as `PATCH`/`GET tenants/v1/{id}/apple-config` answer it
    /// (seed 000 §07 "Store setup"); the private key itself is never sent back.
    public struct AppleConfig: Codable, Sendable, Equatable {
        /// The app's bundle id; `null` until set.
        @ExplicitNull public var bundleId: String?
        /// The App Store Connect API issuer; `null` until set.
        @ExplicitNull public var issuerId: String?
        /// The API key's id; `null` until set.
        @ExplicitNull public var keyId: String?
        /// The app's numeric Apple ID; `null` until set.
        @ExplicitNull public var appAppleId: Int64?
        /// Whether a private key is stored.
        public var hasPrivateKey: Bool
        /// Whether this is the production connection.
        public var production: Bool
        /// An extra trusted root (sandbox tenants only); `null` when none.
        @ExplicitNull public var extraTrustedRootPEM: String?
        /// The certificate Xcode signs local StoreKit purchases with; `null` when none.
        @ExplicitNull public var xcodeCertificatePEM: String?
        /// Whether purchases without an account token may be claimed.
        public var claimUntaggedPurchases: Bool

        /// An App Store connection.
        public init(
            bundleId: String?, issuerId: String?, keyId: String?, appAppleId: Int64?, hasPrivateKey: Bool, production: Bool,
            extraTrustedRootPEM: String?, xcodeCertificatePEM: String?, claimUntaggedPurchases: Bool
        ) {
            self.bundleId = bundleId
            self.issuerId = issuerId
            self.keyId = keyId
            self.appAppleId = appAppleId
            self.hasPrivateKey = hasPrivateKey
            self.production = production
            self.extraTrustedRootPEM = extraTrustedRootPEM
            self.xcodeCertificatePEM = xcodeCertificatePEM
            self.claimUntaggedPurchases = claimUntaggedPurchases
        }
    }

    /// `tenants/v1/{id}/pricing-config`: the credit packages on sale.
    public struct PricingConfig: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case provider, iapCreditPackages }
        /// `apple`, or `google` for Google Play's packages.
        public var provider: String
        /// The packages.
        public var iapCreditPackages: [CreditPackage]

        /// A pricing configuration.
        public init(provider: String = "apple", iapCreditPackages: [CreditPackage]) {
            self.provider = provider
            self.iapCreditPackages = iapCreditPackages
        }
    }

    /// A consumable that adds credits to the wallet.
    public struct CreditPackage: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case platformProductId, credits, displayName }
        /// The App Store product id.
        public var platformProductId: String
        /// Credits it adds.
        public var credits: Int
        /// A name for people; `null` when none.
        @ExplicitNull public var displayName: String?

        /// A credit package.
        public init(platformProductId: String, credits: Int, displayName: String?) {
            self.platformProductId = platformProductId
            self.credits = credits
            self.displayName = displayName
        }
    }

    /// A plan of `tenants/v1/{id}/service-entitlement-products`.
    public struct StorePlan: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case productId, displayName, interval, platformProductIds, gatedWorkflowId }
        /// The catalog id.
        public var productId: String
        /// The name shown to users.
        public var displayName: String
        /// `monthly`, `annual` or `one_time_year`.
        public var interval: String
        /// Store product ids by platform (`{"apple": …, "google": "subscriptionId[:basePlanId]"}`).
        public var platformProductIds: [String: String]
        /// The workflow the plan unlocks; `null` when none.
        @ExplicitNull public var gatedWorkflowId: String?

        /// A plan.
        public init(productId: String, displayName: String, interval: String, platformProductIds: [String: String], gatedWorkflowId: String?) {
            self.productId = productId
            self.displayName = displayName
            self.interval = interval
            self.platformProductIds = platformProductIds
            self.gatedWorkflowId = gatedWorkflowId
        }
    }

    /// `{"data": [StorePlan]}`.
    public struct StorePlans: Codable, Sendable, Equatable {
        /// The plans.
        public var data: [StorePlan]
        /// A plan list.
        public init(data: [StorePlan]) { self.data = data }
    }

    /// `tenants/v1/{id}/trial-config`: `{"ios": {"enabled", "durationDays"}, "android": {...}}`.
    public struct TrialConfig: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case ios, android }
        /// The iOS trial (also every app whose key is not an Android one).
        public var ios: Platform
        /// The Android trial; the server always sends it.
        public var android: Platform?
        /// A trial configuration.
        public init(ios: Platform, android: Platform? = nil) {
            self.ios = ios
            self.android = android
        }

        /// One platform's trial.
        public struct Platform: Codable, Sendable, Equatable {
            /// The JSON keys, which the server reads by name.
            public enum CodingKeys: String, CodingKey, CaseIterable { case enabled, durationDays }
            /// Whether new accounts get the trial.
            public var enabled: Bool
            /// How long it lasts.
            public var durationDays: Int
            /// A platform's trial.
            public init(enabled: Bool, durationDays: Int) {
                self.enabled = enabled
                self.durationDays = durationDays
            }
        }
    }
}

extension DatacoveWire {
    /// `PATCH tenants/v1/{id}/apple-config`: a key left out keeps its value; `null` clears the
    /// two certificates (and reads as left out for the rest).
    public struct AppleConfigPatch: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case bundleId, issuerId, keyId, privateKey, appAppleId, production, extraTrustedRootPEM, xcodeCertificatePEM, claimUntaggedPurchases
        }
        public var bundleId: String?
        public var issuerId: String?
        public var keyId: String?
        /// The App Store Connect API key (.p8), checked when saved and never sent back.
        public var privateKey: String?
        public var appAppleId: Int64?
        public var production: Bool?
        public var extraTrustedRootPEM: Nullable<String>?
        public var xcodeCertificatePEM: Nullable<String>?
        public var claimUntaggedPurchases: Bool?

        /// A patch that changes nothing; set the members to change.
        public init() {}
    }

    /// `PUT tenants/v1/{id}/pricing-config`: the packages that replace the tenant's.
    public struct PricingConfigUpdate: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case provider, iapCreditPackages }
        /// `apple` when left out, or `google`: the packages of the other provider are kept.
        public var provider: String?
        public var iapCreditPackages: [CreditPackage]?

        /// An update.
        public init(provider: String? = nil, iapCreditPackages: [CreditPackage]?) {
            self.provider = provider
            self.iapCreditPackages = iapCreditPackages
        }
    }

    /// `POST tenants/v1/{id}/service-entitlement-products`: a new plan's fields.
    public struct PlanRequest: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case displayName, interval, platformProductIds, gatedWorkflowId }
        public var displayName: String?
        /// `monthly`, `annual` or `one_time_year`.
        public var interval: String?
        /// Store product ids by platform; `apple` is required, `google` (a Play subscription id,
        /// or `subscriptionId:basePlanId`) sells the plan on Google Play too.
        public var platformProductIds: [String: String]?
        public var gatedWorkflowId: String?

        /// A plan request.
        public init(displayName: String? = nil, interval: String? = nil, platformProductIds: [String: String]? = nil, gatedWorkflowId: String? = nil) {
            self.displayName = displayName
            self.interval = interval
            self.platformProductIds = platformProductIds
            self.gatedWorkflowId = gatedWorkflowId
        }
    }

    /// `PATCH tenants/v1/{id}/trial-config`: what is left out is kept.
    public struct TrialConfigPatch: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case ios, android }
        public var ios: Platform?
        public var android: Platform?
        /// A patch.
        public init(ios: Platform? = nil, android: Platform? = nil) {
            self.ios = ios
            self.android = android
        }

        /// One platform's changes.
        public struct Platform: Codable, Sendable, Equatable {
            /// The JSON keys, which the server reads by name.
            public enum CodingKeys: String, CodingKey, CaseIterable { case enabled, durationDays }
            public var enabled: Bool?
            public var durationDays: Int?
            /// A platform's changes.
            public init(enabled: Bool? = nil, durationDays: Int? = nil) {
                self.enabled = enabled
                self.durationDays = durationDays
            }
        }
    }
}
