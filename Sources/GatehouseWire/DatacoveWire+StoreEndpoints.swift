import Foundation

extension DatacoveWire.Endpoints {
    /// The tenant administrator's store setup (seed 000 §07) under `/api/tenants/v1/:tenantId`,
    /// with the admin token.
    public enum Store {
        static let base = DatacoveWire.Endpoints.mount + "/tenants/v1/:tenantId"

        static func endpoint<Body, Reply>(_ method: RequestMethod, _ path: String, id: String, _ summary: String) -> Endpoint<Body, Reply> {
            Endpoint(method, base + path, credential: .admin, envelope: .datacove, id: id, summary: summary)
        }

        public static let updateAppleConfig: Endpoint<DatacoveWire.AppleConfigPatch, DatacoveWire.AppleConfig> =
            endpoint(.PATCH, "/apple-config", id: "updateAppleConfig", "Set the App Store Connect details (the .p8 key is checked, never returned)")
        public static let appleConfig: Endpoint<NoBody, DatacoveWire.AppleConfig> =
            endpoint(.GET, "/apple-config", id: "getAppleConfig", "The App Store Connect details")
        public static let updateGooglePlayConfig: Endpoint<DatacoveWire.GooglePlayConfigPatch, DatacoveWire.GooglePlayConfig> =
            endpoint(.PATCH, "/google-play-config", id: "updateGooglePlayConfig",
                     "Set the Google Play details (the service account key is checked, kept sealed, never returned)")
        public static let googlePlayConfig: Endpoint<NoBody, DatacoveWire.GooglePlayConfig> =
            endpoint(.GET, "/google-play-config", id: "getGooglePlayConfig", "The Google Play details")
        public static let putPricingConfig: Endpoint<DatacoveWire.PricingConfigUpdate, DatacoveWire.PricingConfig> =
            endpoint(.PUT, "/pricing-config", id: "putPricingConfig", "Replace the credit packages")
        public static let pricingConfig: Endpoint<NoBody, DatacoveWire.PricingConfig> =
            endpoint(.GET, "/pricing-config", id: "getPricingConfig", "The credit packages")
        public static let createPlan: Endpoint<DatacoveWire.PlanRequest, DatacoveWire.StorePlan> =
            endpoint(.POST, "/service-entitlement-products", id: "createPlan", "Add a plan")
        public static let plans: Endpoint<NoBody, DatacoveWire.StorePlans> =
            endpoint(.GET, "/service-entitlement-products", id: "listPlans", "The plans")
        public static let deletePlan: Endpoint<NoBody, NoBody> =
            endpoint(.DELETE, "/service-entitlement-products/:productId", id: "deletePlan", "Remove a plan")
        public static let updateTrialConfig: Endpoint<DatacoveWire.TrialConfigPatch, DatacoveWire.TrialConfig> =
            endpoint(.PATCH, "/trial-config", id: "updateTrialConfig", "Switch the server trial on or off")
        public static let trialConfig: Endpoint<NoBody, DatacoveWire.TrialConfig> =
            endpoint(.GET, "/trial-config", id: "getTrialConfig", "The server trial")

        public static let putPasskeyConfig: Endpoint<DatacoveWire.PasskeyConfig, DatacoveWire.PasskeyConfig> =
            endpoint(.PUT, "/passkey-config", id: "putPasskeyConfig", "Set the passkeys' relying party, origins and iOS apps")
        public static let passkeyConfig: Endpoint<NoBody, DatacoveWire.PasskeyConfig> =
            endpoint(.GET, "/passkey-config", id: "getPasskeyConfig", "The passkeys' relying party")

        public static var all: [EndpointDescription] {
            [
                putPasskeyConfig.described, passkeyConfig.described, updateAppleConfig.described, appleConfig.described, updateGooglePlayConfig.described, googlePlayConfig.described,
                putPricingConfig.described, pricingConfig.described, createPlan.described,
                plans.described, deletePlan.described, updateTrialConfig.described, trialConfig.described,
            ]
        }
    }
}
