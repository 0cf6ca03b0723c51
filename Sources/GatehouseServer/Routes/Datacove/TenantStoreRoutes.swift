import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// The tenant administrator's store setup (seed 000 §07 "Store setup") under
/// `/api/tenants/v1/:id`, authenticated with an admin token, answering in the Datacove envelope.
enum TenantStoreRoutes {
    static func register(on router: Router, commerce: CommerceEngine, directory: TenantDirectory, adminToken: String?, logger: Logger) {
        router.renderErrors(under: "/api/tenants") { error, path, context in DatacoveError.render(error, path: path, context: context, logger: logger) }
        let (admin, endpoints) = (AdminAuthentication(directory: directory, configuredToken: adminToken), DatacoveWire.Endpoints.Store.self)
        /// Registers a store endpoint without a body: every one names its tenant in the path.
        func on<Reply>(_ endpoint: Endpoint<NoBody, Reply>, _ body: @escaping @Sendable (String, RequestContext) async throws -> Response) {
            router.on(endpoint, admin) { _, context, _ in try await body(context.parameter("tenantId"), context) }
        }
        /// Registers one with a body, read into the endpoint's body type (`CommerceBody`).
        func on<Body: Decodable & Sendable, Key: CodingKey & CaseIterable, Reply>(
            _ endpoint: Endpoint<Body, Reply>, keys: Key.Type, refusal: @escaping @Sendable (BodyDecodingError) -> CommerceError? = { _ in nil },
            _ body: @escaping @Sendable (Body, String) async throws -> Response
        ) {
            router.on(endpoint, admin) { request, context, _ in
                try await body(try CommerceBody.decode(Body.self, request, keys: keys, refusal: refusal), context.parameter("tenantId"))
            }
        }
        on(endpoints.updateAppleConfig, keys: DatacoveWire.AppleConfigPatch.CodingKeys.self) { body, tenantID in
            var patch = AppleConfigPatch()
            (patch.bundleId, patch.issuerId, patch.keyId, patch.privateKey) = (body.bundleId, body.issuerId, body.keyId, body.privateKey)
            (patch.appAppleId, patch.production, patch.claimUntaggedPurchases) = (body.appAppleId, body.production, body.claimUntaggedPurchases)
            patch.extraTrustedRootPEM = body.extraTrustedRootPEM.map(\.wrapped)
            patch.xcodeCertificatePEM = body.xcodeCertificatePEM.map(\.wrapped)
            return try .json(StoreJSON.apple(try await commerce.updateAppleConfig(tenantID: tenantID, patch)))
        }
        on(endpoints.appleConfig) { tenantID, _ in
            guard let config = try await commerce.appleConfig(tenantID: tenantID) else { throw CommerceError.notFound(.appStoreConfiguration) }
            return try .json(StoreJSON.apple(config))
        }
        on(endpoints.updateGooglePlayConfig, keys: DatacoveWire.GooglePlayConfigPatch.CodingKeys.self) { body, tenantID in
            var patch = GooglePlayConfigPatch()
            (patch.packageName, patch.serviceAccountKey, patch.production) = (body.packageName, body.serviceAccountKey, body.production)
            patch.pushAudience = body.pushAudience.map(\.wrapped)
            patch.pushServiceAccountEmail = body.pushServiceAccountEmail.map(\.wrapped)
            return try .json(StoreJSON.googlePlay(try await commerce.updateGooglePlayConfig(tenantID: tenantID, patch)))
        }
        on(endpoints.googlePlayConfig) { tenantID, _ in
            guard let config = try await commerce.googlePlayConfig(tenantID: tenantID) else { throw CommerceError.notFound(.googlePlayConfiguration) }
            return try .json(StoreJSON.googlePlay(config))
        }
        let packagesRefused = CommerceError.invalid("iapCreditPackages", .list)
        let packageRefused = CommerceError.invalid("each package", .object(keys: ["platformProductId", "credits"]))
        on(endpoints.putPricingConfig, keys: DatacoveWire.PricingConfigUpdate.CodingKeys.self, refusal: { error in
            guard error.path.first == DatacoveWire.PricingConfigUpdate.CodingKeys.iapCreditPackages.stringValue else { return nil }
            return error.path.count == 1 ? packagesRefused : packageRefused
        }) { body, tenantID in
            guard let items = body.iapCreditPackages else { throw packagesRefused }
            let provider = body.provider ?? "apple"
            let packages = items.map {
                CreditPackage(provider: provider, platformProductId: $0.platformProductId, credits: $0.credits, displayName: $0.displayName)
            }
            return try .json(StoreJSON.pricing(try await commerce.setCreditPackages(tenantID: tenantID, provider: provider, packages), provider: provider))
        }
        // `?provider=google` for Google Play's packages; the App Store's without one, as before.
        router.on(endpoints.pricingConfig, admin) { request, context, _ in
            let provider = request.queryValue("provider") ?? "apple"
            let packages = try await commerce.creditPackages(tenantID: context.parameter("tenantId"), provider: provider)
            return try .json(StoreJSON.pricing(packages, provider: provider))
        }
        typealias PlanKeys = DatacoveWire.PlanRequest.CodingKeys
        let intervalRefused = CommerceError.invalid("interval", .oneOf(["monthly", "annual", "one_time_year"]))
        let appleIDRefused = CommerceError.invalid("platformProductIds.apple", .required)
        // The ids that are not an object, or an apple id that is not a string, are no apple id.
        let ids = PlanKeys.platformProductIds.stringValue
        on(endpoints.createPlan, keys: PlanKeys.self, refusal: { error in error.path == [ids] || error.path == [ids, "apple"] ? appleIDRefused : nil }) {
            body, tenantID in
            guard let interval = body.interval.flatMap(Plan.Interval.init(rawValue:)) else { throw intervalRefused }
            guard let apple = body.platformProductIds?["apple"] else { throw appleIDRefused }
            let plan = try await commerce.createPlan(
                tenantID: tenantID, displayName: body.displayName ?? "", interval: interval, appleProductID: apple,
                googleProductID: body.platformProductIds?["google"], gatedWorkflowID: body.gatedWorkflowId)
            return try .json(StoreJSON.plan(plan), status: 201)
        }
        on(endpoints.plans) { tenantID, _ in
            try .json(DatacoveWire.StorePlans(data: try await commerce.plans(tenantID: tenantID).map(StoreJSON.plan)))
        }
        on(endpoints.deletePlan) { tenantID, context in
            try await commerce.deletePlan(tenantID: tenantID, productID: context.parameter("productId"))
            return .empty()
        }
        // An `ios` or `android` that is not an object of those two members is refused as a whole,
        // as before the members' own types are read.
        on(endpoints.updateTrialConfig, keys: DatacoveWire.TrialConfigPatch.CodingKeys.self, refusal: { error in
            guard let platform = error.path.first, ["ios", "android"].contains(platform), error.path.count == 1 || error.problem == .unknownKey
            else { return nil }
            return CommerceError.invalid(platform, .object(keys: ["enabled", "durationDays"]))
        }) { body, tenantID in
            let trial = try await commerce.updateTrialConfig(
                tenantID: tenantID, iosEnabled: body.ios?.enabled, iosDurationDays: body.ios?.durationDays, androidEnabled: body.android?.enabled,
                androidDurationDays: body.android?.durationDays)
            return try .json(StoreJSON.trial(trial))
        }
        on(endpoints.trialConfig) { tenantID, _ in try .json(StoreJSON.trial(try await commerce.trialConfig(tenantID: tenantID))) }
    }
}
