import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The tenant administrator's store setup (seed 000 §07 "Store setup") under
/// `/api/tenants/v1/:id`, authenticated with an admin token, answering in the Datacove envelope.
enum TenantStoreRoutes {
    static func register(on router: Router, commerce: CommerceEngine, directory: TenantDirectory, adminToken: String?, logger: Logger) {
        router.renderErrors(under: "/api/tenants") { error, path, context in DatacoveError.render(error, path: path, context: context, logger: logger) }
        let (admin, endpoints) = (AdminAuthentication(directory: directory, configuredToken: adminToken), DatacoveWire.Endpoints.Store.self)
        /// Registers a store endpoint: every one names its tenant in the path.
        func on<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, _ body: @escaping @Sendable (Request, String, RequestContext) async throws -> Response) {
            router.on(endpoint, admin) { request, context, _ in try await body(request, context.parameter("tenantId"), context) }
        }
        on(endpoints.updateAppleConfig) { request, tenantID, _ in
            typealias Keys = DatacoveWire.AppleConfigPatchKeys
            let body = try StoreBody(request, keys: Keys.self)
            var patch = AppleConfigPatch()
            patch.bundleId = try body.string(Keys.bundleId)
            patch.issuerId = try body.string(Keys.issuerId)
            patch.keyId = try body.string(Keys.keyId)
            patch.privateKey = try body.string(Keys.privateKey)
            patch.appAppleId = try body.int(Keys.appAppleId.stringValue).map(Int64.init)
            patch.production = try body.bool(Keys.production)
            patch.claimUntaggedPurchases = try body.bool(Keys.claimUntaggedPurchases)
            if body.has(Keys.extraTrustedRootPEM) { patch.extraTrustedRootPEM = .some(try body.string(Keys.extraTrustedRootPEM)) }
            if body.has(Keys.xcodeCertificatePEM) { patch.xcodeCertificatePEM = .some(try body.string(Keys.xcodeCertificatePEM)) }
            return try .json(StoreJSON.apple(try await commerce.updateAppleConfig(tenantID: tenantID, patch)))
        }
        on(endpoints.appleConfig) { _, tenantID, _ in
            guard let config = try await commerce.appleConfig(tenantID: tenantID) else { throw CommerceError.notFound(.appStoreConfiguration) }
            return try .json(StoreJSON.apple(config))
        }
        on(endpoints.putPricingConfig) { request, tenantID, _ in
            typealias Keys = DatacoveWire.PricingConfig.CodingKeys
            typealias PackageKeys = DatacoveWire.CreditPackage.CodingKeys
            let body = try StoreBody(request, keys: Keys.self)
            guard case .array(let items)? = body.fields[Keys.iapCreditPackages.stringValue] else {
                throw CommerceError.invalid("iapCreditPackages", .list)
            }
            let packages = try items.map { item -> CreditPackage in
                guard case .object(let fields) = item, let product = fields[PackageKeys.platformProductId.stringValue]?.string,
                      let credits = fields[PackageKeys.credits.stringValue]?.int
                else { throw CommerceError.invalid("each package", .object(keys: ["platformProductId", "credits"])) }
                return CreditPackage(
                    provider: "apple", platformProductId: product, credits: credits, displayName: fields[PackageKeys.displayName.stringValue]?.string)
            }
            let saved = try await commerce.setCreditPackages(tenantID: tenantID, provider: try body.string(Keys.provider) ?? "apple", packages)
            return try .json(StoreJSON.pricing(saved))
        }
        on(endpoints.pricingConfig) { _, tenantID, _ in try .json(StoreJSON.pricing(try await commerce.creditPackages(tenantID: tenantID))) }
        on(endpoints.createPlan) { request, tenantID, _ in
            typealias Keys = DatacoveWire.PlanRequestKeys
            let body = try StoreBody(request, keys: Keys.self)
            guard let interval = try body.string(Keys.interval).flatMap(Plan.Interval.init(rawValue:)) else {
                throw CommerceError.invalid("interval", .oneOf(["monthly", "annual", "one_time_year"]))
            }
            guard case .object(let ids)? = body.fields[Keys.platformProductIds.stringValue], let apple = ids["apple"]?.string else {
                throw CommerceError.invalid("platformProductIds.apple", .required)
            }
            let plan = try await commerce.createPlan(
                tenantID: tenantID, displayName: try body.string(Keys.displayName) ?? "", interval: interval, appleProductID: apple,
                gatedWorkflowID: try body.string(Keys.gatedWorkflowId))
            return try .json(StoreJSON.plan(plan), status: 201)
        }
        on(endpoints.plans) { _, tenantID, _ in
            try .json(DatacoveWire.StorePlans(data: try await commerce.plans(tenantID: tenantID).map(StoreJSON.plan)))
        }
        on(endpoints.deletePlan) { _, tenantID, context in
            try await commerce.deletePlan(tenantID: tenantID, productID: context.parameter("productId"))
            return .empty()
        }
        on(endpoints.updateTrialConfig) { request, tenantID, _ in
            typealias PlatformKeys = DatacoveWire.TrialConfig.Platform.CodingKeys
            let body = try StoreBody(request, keys: DatacoveWire.TrialConfig.CodingKeys.self)
            var enabled: Bool?
            var days: Int?
            if let ios = body.fields[DatacoveWire.TrialConfig.CodingKeys.ios.stringValue] {
                let allowed = Set(PlatformKeys.allCases.map(\.stringValue))
                guard case .object(let fields) = ios, fields.keys.allSatisfy(allowed.contains) else {
                    throw CommerceError.invalid("ios", .object(keys: ["enabled", "durationDays"]))
                }
                if let value = fields[PlatformKeys.enabled.stringValue] {
                    guard let flag = value.bool else { throw CommerceError.invalid("ios.enabled", .boolean) }
                    enabled = flag
                }
                if let value = fields[PlatformKeys.durationDays.stringValue] {
                    guard let number = value.int else { throw CommerceError.invalid("ios.durationDays", .wholeNumber) }
                    days = number
                }
            }
            return try .json(StoreJSON.trial(try await commerce.updateTrialConfig(tenantID: tenantID, iosEnabled: enabled, iosDurationDays: days)))
        }
        on(endpoints.trialConfig) { _, tenantID, _ in try .json(StoreJSON.trial(try await commerce.trialConfig(tenantID: tenantID))) }
    }
}
