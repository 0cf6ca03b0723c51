import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// The SMS-pumping guard's blocks and what it compares:
/// `GET|POST /admin/v1/tenants/:tenantId/prefix-blocks` (list; pin a prefix on one
/// application or the whole tenant), `DELETE …/prefix-blocks/:prefix[?applicationId=…]` (lift), and
/// `GET …/otp-applications/:appId/conversion` (the last hour per prefix and country).
enum PrefixBlockRoutes {
    static func register(on admin: AdminRegistrar, engine: VerificationEngine, directory: TenantDirectory) {
        admin.on(AdminWire.Endpoints.listPrefixBlocks) { _, context in
            let tenantID = context.parameter("tenantId")
            _ = try await directory.tenant(id: tenantID)
            return AdminWire.List(data: try await engine.prefixBlocks(tenantID: tenantID).map(AdminWire.PrefixBlock.init))
        }
        admin.on(AdminWire.Endpoints.pinPrefixBlock, status: 201, fields: ["prefix", "applicationId"]) { body, context in
            let tenantID = context.parameter("tenantId")
            _ = try await directory.tenant(id: tenantID)
            return AdminWire.PrefixBlock(try await engine.pinPrefixBlock(tenantID: tenantID, applicationID: body.applicationId, prefix: body.prefix))
        }
        admin.on(AdminWire.Endpoints.liftPrefixBlock) { request, context in
            _ = try await directory.tenant(id: context.parameter("tenantId"))
            try await engine.liftPrefixBlock(
                tenantID: context.parameter("tenantId"), applicationID: request.queryValue("applicationId"), prefix: context.parameter("prefix"))
            return NoBody()
        }
        admin.on(AdminWire.Endpoints.getConversion) { _, context in
            let (baseline, lines) = try await engine.conversion(tenantID: context.parameter("tenantId"), applicationID: context.parameter("appId"))
            func wire(_ scope: String) -> [AdminWire.Conversion.Line] {
                lines.filter { $0.scope == scope }.map { .init(value: scope == "prefix" ? "+" + $0.value : $0.value, sent: $0.sent, verified: $0.verified) }
            }
            return AdminWire.Conversion(baseline: baseline, prefixes: wire("prefix"), countries: wire("country"))
        }
    }
}
