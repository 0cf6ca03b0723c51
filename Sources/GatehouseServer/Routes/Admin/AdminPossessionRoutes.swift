import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehousePossessionEngine
import GatehouseWire
import GatehouseFormats

/// The operator's possession settings, v3 API clients and identity directory of a tenant.
/// Client secrets are shown once; the directory's dates of birth and SSNs never come out.
enum AdminPossessionRoutes {
    typealias Settings = AdminWire.PossessionSettings

    static func register(on admin: AdminRegistrar, engine: PossessionEngine, directory: TenantDirectory) {
        @Sendable func tenant(_ context: RequestContext) async throws -> String {
            let id = context.parameter("tenantId")
            _ = try await directory.tenant(id: id)
            return id
        }
        admin.on(AdminWire.Endpoints.getPossessionSettings) { _, context in
            try await answer(engine, tenantID: try await tenant(context))
        }
        let settingsFields = Set(Settings.CodingKeys.allCases.map(\.stringValue)).subtracting(["hasCarrierSecret", "identities"])
        admin.on(AdminWire.Endpoints.putPossessionSettings, fields: settingsFields) { body, context in
            let id = try await tenant(context)
            guard let environment = PossessionSettings.Environment(rawValue: body.environment) else {
                throw HTTPError.badRequest("environment must be sandbox or production", code: "invalid_argument")
            }
            let carrier = try body.carrier.map(CamaraSettings.init)
            try await engine.saveSettings(
                tenantID: id, PossessionSettings(environment: environment, returnFullSsn: body.returnFullSsn ?? false, carrier: carrier),
                carrierSecret: body.carrierSecret)
            return try await answer(engine, tenantID: id)
        }
        admin.on(AdminWire.Endpoints.listPossessionClients) { _, context in
            AdminWire.List(data: try await engine.clients(tenantID: try await tenant(context)).map { AdminWire.PossessionClient($0) })
        }
        admin.on(AdminWire.Endpoints.createPossessionClient, status: 201, fields: ["label"]) { body, context in
            let issued = try await engine.issueClient(tenantID: try await tenant(context), label: body.label)
            return AdminWire.PossessionClient(issued.client, secret: issued.secret)
        }
        admin.on(AdminWire.Endpoints.revokePossessionClient) { _, context in
            try await engine.revokeClient(tenantID: try await tenant(context), clientID: context.parameter("clientId"))
            return NoBody()
        }
        admin.on(AdminWire.Endpoints.importIdentities, maxBodySize: 16 << 20, fields: ["identities"]) { body, context in
            let count = try await engine.importIdentities(tenantID: try await tenant(context), body.identities.map(IdentityRecord.init))
            return AdminWire.IdentityImported(imported: count)
        }
        admin.on(AdminWire.Endpoints.removeIdentity) { _, context in
            try await engine.removeIdentity(tenantID: try await tenant(context), phoneNumber: context.parameter("phoneNumber"))
            return NoBody()
        }
    }

    static func answer(_ engine: PossessionEngine, tenantID: String) async throws -> Settings {
        let settings = try await engine.settings(tenantID: tenantID)
        return Settings(
            environment: settings.environment.rawValue, returnFullSsn: settings.returnFullSsn, carrier: settings.carrier.map(AdminWire.CamaraCarrier.init),
            hasCarrierSecret: try await engine.hasCarrierSecret(tenantID: tenantID), identities: try await engine.identityCount(tenantID: tenantID))
    }
}

extension AdminWire.PossessionClient {
    init(_ client: PossessionEngine.Client, secret: String? = nil) {
        self.init(clientId: client.id, label: client.label, createdAt: WireDate.string(client.createdAt), clientSecret: secret)
    }
}

extension AdminWire.CamaraCarrier {
    init(_ settings: CamaraSettings) {
        self.init(
            authorizationEndpoint: settings.authorizationEndpoint.absoluteString, tokenEndpoint: settings.tokenEndpoint.absoluteString,
            apiBase: settings.apiBase.absoluteString, clientId: settings.clientId, redirectUri: settings.redirectUri.absoluteString,
            development: settings.development)
    }
}

extension CamaraSettings {
    init(_ wire: AdminWire.CamaraCarrier) throws {
        func url(_ text: String, _ field: String) throws -> URL {
            guard let url = URL(string: text) else { throw HTTPError.badRequest("carrier.\(field) is not a URL", code: "invalid_argument") }
            return url
        }
        self.init(
            authorizationEndpoint: try url(wire.authorizationEndpoint, "authorizationEndpoint"), tokenEndpoint: try url(wire.tokenEndpoint, "tokenEndpoint"),
            apiBase: try url(wire.apiBase, "apiBase"), clientId: wire.clientId, redirectUri: try url(wire.redirectUri, "redirectUri"),
            development: wire.development ?? false)
    }
}

extension IdentityRecord {
    init(_ wire: AdminWire.Identity) {
        self.init(
            phoneNumber: wire.phoneNumber, firstName: wire.firstName, lastName: wire.lastName, addresses: (wire.addresses ?? []).map(PostalAddress.init),
            emailAddresses: wire.emailAddresses ?? [], dob: wire.dob, ssn: wire.ssn)
    }
}
