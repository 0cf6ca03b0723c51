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
        admin.on(AdminWire.Endpoints.getPossessionSettings, .async { _, context in
            let id = try await tenant(context)
            return try .json(try await answer(engine, tenantID: id))
        })
        admin.on(AdminWire.Endpoints.putPossessionSettings, .async { request, context in
            let id = try await tenant(context)
            let fields = Set(Settings.CodingKeys.allCases.map(\.stringValue)).subtracting(["hasCarrierSecret", "identities"])
            let body = try StrictJSON.decode(Settings.self, from: request, fields: fields)
            guard let environment = PossessionSettings.Environment(rawValue: body.environment) else {
                throw HTTPError.badRequest("environment must be sandbox or production", code: "invalid_argument")
            }
            let carrier = try body.carrier.map(CamaraSettings.init)
            try await engine.saveSettings(
                tenantID: id, PossessionSettings(environment: environment, returnFullSsn: body.returnFullSsn ?? false, carrier: carrier),
                carrierSecret: body.carrierSecret)
            return try .json(try await answer(engine, tenantID: id))
        })
        admin.on(AdminWire.Endpoints.listPossessionClients, .async { _, context in
            let id = try await tenant(context)
            return try .json(AdminWire.List(data: try await engine.clients(tenantID: id).map { AdminWire.PossessionClient($0) }))
        })
        admin.on(AdminWire.Endpoints.createPossessionClient, .async { request, context in
            let id = try await tenant(context)
            let body = try StrictJSON.decode(AdminWire.CreatePossessionClient.self, from: request, fields: ["label"])
            let issued = try await engine.issueClient(tenantID: id, label: body.label)
            return try .json(AdminWire.PossessionClient(issued.client, secret: issued.secret), status: 201)
        })
        admin.on(AdminWire.Endpoints.revokePossessionClient, .async { _, context in
            try await engine.revokeClient(tenantID: try await tenant(context), clientID: context.parameter("clientId"))
            return .empty()
        })
        admin.on(AdminWire.Endpoints.importIdentities, maxBodySize: 16 << 20, .async { request, context in
            let id = try await tenant(context)
            let body = try StrictJSON.decode(AdminWire.IdentityImport.self, from: request, fields: ["identities"])
            let count = try await engine.importIdentities(tenantID: id, body.identities.map(IdentityRecord.init))
            return try .json(AdminWire.IdentityImported(imported: count))
        })
        admin.on(AdminWire.Endpoints.removeIdentity, .async { _, context in
            try await engine.removeIdentity(tenantID: try await tenant(context), phoneNumber: context.parameter("phoneNumber"))
            return .empty()
        })
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
