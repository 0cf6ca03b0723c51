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
        func handler(_ body: @escaping @Sendable (Request, String) async throws -> Response) -> Handler {
            handler { request, tenantID, _ in try await body(request, tenantID) }
        }
        /// Hands each route its tenant id; errors go to the dialect's renderer.
        func handler(_ body: @escaping @Sendable (Request, String, RequestContext) async throws -> Response) -> Handler {
            .async { request, context in try await body(request, context.parameter("tenantId"), context) }
        }
        let auth = AdminAuthentication(directory: directory, configuredToken: adminToken)
        router.group("/api/tenants/v1/:tenantId", middleware: [auth]) { tenant in
            tenant.patch("/apple-config", handler { request, tenantID in
                let body = try StoreBody(request, allowed: ["bundleId", "issuerId", "keyId", "privateKey", "appAppleId", "production", "extraTrustedRootPEM", "xcodeCertificatePEM",
                                                          "claimUntaggedPurchases"])
                var patch = AppleConfigPatch()
                patch.bundleId = try body.string("bundleId")
                patch.issuerId = try body.string("issuerId")
                patch.keyId = try body.string("keyId")
                patch.privateKey = try body.string("privateKey")
                patch.appAppleId = try body.int("appAppleId").map(Int64.init)
                patch.production = try body.bool("production")
                patch.claimUntaggedPurchases = try body.bool("claimUntaggedPurchases")
                if body.fields.keys.contains("extraTrustedRootPEM") { patch.extraTrustedRootPEM = .some(try body.string("extraTrustedRootPEM")) }
                if body.fields.keys.contains("xcodeCertificatePEM") { patch.xcodeCertificatePEM = .some(try body.string("xcodeCertificatePEM")) }
                return try .json(StoreJSON.apple(try await commerce.updateAppleConfig(tenantID: tenantID, patch)))
            })
            tenant.get("/apple-config", handler { _, tenantID in
                guard let config = try await commerce.appleConfig(tenantID: tenantID) else { throw CommerceError(.notFound, "no App Store configuration") }
                return try .json(StoreJSON.apple(config))
            })
            tenant.put("/pricing-config", handler { request, tenantID in
                let body = try StoreBody(request, allowed: ["provider", "iapCreditPackages"])
                guard case .array(let items)? = body.fields["iapCreditPackages"] else {
                    throw CommerceError(.validationFailed, "iapCreditPackages must be a list")
                }
                let packages = try items.map { item -> CreditPackage in
                    guard case .object(let fields) = item, let product = fields["platformProductId"]?.string, let credits = fields["credits"]?.int
                    else { throw CommerceError(.validationFailed, "each package needs platformProductId and credits") }
                    return CreditPackage(provider: "apple", platformProductId: product, credits: credits, displayName: fields["displayName"]?.string)
                }
                let saved = try await commerce.setCreditPackages(tenantID: tenantID, provider: try body.string("provider") ?? "apple", packages)
                return try .json(StoreJSON.pricing(saved))
            })
            tenant.get("/pricing-config", handler { _, tenantID in try .json(StoreJSON.pricing(try await commerce.creditPackages(tenantID: tenantID))) })
            tenant.post("/service-entitlement-products", handler { request, tenantID in
                let body = try StoreBody(request, allowed: ["displayName", "interval", "platformProductIds", "gatedWorkflowId"])
                guard let interval = try body.string("interval").flatMap(Plan.Interval.init(rawValue:)) else {
                    throw CommerceError(.validationFailed, "interval must be monthly, annual or one_time_year")
                }
                guard case .object(let ids)? = body.fields["platformProductIds"], let apple = ids["apple"]?.string else {
                    throw CommerceError(.validationFailed, "platformProductIds.apple is required")
                }
                let plan = try await commerce.createPlan(
                    tenantID: tenantID, displayName: try body.string("displayName") ?? "", interval: interval, appleProductID: apple,
                    gatedWorkflowID: try body.string("gatedWorkflowId"))
                return try .json(StoreJSON.plan(plan), status: 201)
            })
            tenant.get("/service-entitlement-products", handler { _, tenantID in
                try .json(DatacoveWire.StorePlans(data: try await commerce.plans(tenantID: tenantID).map(StoreJSON.plan)))
            })
            tenant.delete("/service-entitlement-products/:productId", handler { _, tenantID, context in
                try await commerce.deletePlan(tenantID: tenantID, productID: context.parameter("productId"))
                return .empty()
            })
            tenant.patch("/trial-config", handler { request, tenantID in
                let body = try StoreBody(request, allowed: ["ios"])
                var enabled: Bool?
                var days: Int?
                if let ios = body.fields["ios"] {
                    guard case .object(let fields) = ios, fields.keys.allSatisfy({ ["enabled", "durationDays"].contains($0) }) else {
                        throw CommerceError(.validationFailed, "ios must be an object with enabled and durationDays")
                    }
                    if let value = fields["enabled"] { guard let flag = value.bool else { throw CommerceError(.validationFailed, "ios.enabled must be true or false") }; enabled = flag }
                    if let value = fields["durationDays"] { guard let number = value.int else { throw CommerceError(.validationFailed, "ios.durationDays must be a number") }; days = number }
                }
                return try .json(StoreJSON.trial(try await commerce.updateTrialConfig(tenantID: tenantID, iosEnabled: enabled, iosDurationDays: days)))
            })
            tenant.get("/trial-config", handler { _, tenantID in try .json(StoreJSON.trial(try await commerce.trialConfig(tenantID: tenantID))) })
        }
    }
}
