import Foundation
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseWire
import GatehouseFormats

/// The operator's managed API definitions of a tenant; secrets go in and never come out.
enum AdminManagedAPIRoutes {
    typealias Wire = AdminWire.ManagedAPIDefinition

    static func register(on admin: AdminRegistrar, engine: ManagedAPIsEngine) {
        let fields = Set(Wire.CodingKeys.allCases.map(\.stringValue)).subtracting(["hasSecret", "updatedAt"])
        admin.on(AdminWire.Endpoints.listManagedAPIs) { _, context in
            AdminWire.List(data: try await engine.definitions(tenantID: context.parameter("tenantId")).map(Wire.init))
        }
        admin.on(AdminWire.Endpoints.getManagedAPI) { _, context in
            Wire(try await engine.definition(tenantID: context.parameter("tenantId"), name: context.parameter("name")))
        }
        // The nested objects are as strict as the top level (the reader refuses an unknown member
        // at any depth): a misspelt `oauth2.clientSecret` must not pass as "no secret".
        admin.on(AdminWire.Endpoints.putManagedAPI, fields: fields) { body, context in
            let name = context.parameter("name")
            if let named = body.name, named != name { throw HTTPError.badRequest("name must match the path", code: "invalid_definition") }
            return Wire(try await engine.saveDefinition(tenantID: context.parameter("tenantId"), try ManagedAPIDefinition(body, name: name)))
        }
        admin.on(AdminWire.Endpoints.deleteManagedAPI) { _, context in
            try await engine.deleteDefinition(tenantID: context.parameter("tenantId"), name: context.parameter("name"))
            return NoBody()
        }
    }
}

extension AdminWire.ManagedAPIDefinition {
    init(_ definition: ManagedAPIDefinition) {
        var basic: Basic?
        var apiKey: APIKey?
        var oauth2: OAuth2?
        switch definition.auth {
        case .none, .bearerToken: break
        case .basic(let username, _): basic = Basic(username: username)
        case .apiKey(let placement, let name, _): apiKey = APIKey(placement: placement.rawValue, name: name)
        case .oauth2(let settings):
            oauth2 = OAuth2(
                grant: settings.grant.rawValue, authorizationEndpoint: settings.authorizationEndpoint?.absoluteString,
                tokenEndpoint: settings.tokenEndpoint.absoluteString, clientId: settings.clientID, scopes: settings.scopes,
                authorizationParams: settings.authorizationParams, rotatesRefreshTokens: settings.rotatesRefreshTokens,
                tokenEndpointAuthMethod: settings.tokenEndpointAuth.rawValue)
        }
        self.init(
            name: definition.name, displayName: definition.displayName, baseUrl: definition.baseURL.absoluteString,
            authType: definition.auth.type.rawValue, mode: definition.mode.rawValue, development: definition.development,
            metadata: definition.metadata, basic: basic, apiKey: apiKey, oauth2: oauth2, hasSecret: definition.hasSecret,
            updatedAt: definition.updatedAt.map(WireDate.string))
    }
}

extension ManagedAPIDefinition {
    init(_ body: AdminWire.ManagedAPIDefinition, name: String) throws {
        func invalid(_ message: String) -> HTTPError { HTTPError.badRequest(message, code: "invalid_definition") }
        func choice<T: RawRepresentable & CaseIterable>(_ value: String?, _ field: String, default fallback: T? = nil) throws -> T where T.RawValue == String {
            if let value { if let parsed = T(rawValue: value) { return parsed } } else if let fallback { return fallback }
            throw invalid("\(field) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func url(_ text: String?, _ field: String) throws -> URL {
            guard let text, let url = URL(string: text), url.scheme != nil else { throw invalid("\(field) must be an absolute URL") }
            return url
        }
        let type: AuthType = try choice(body.authType, "authType")
        let auth: Auth
        switch type {
        case .none: auth = .none
        case .basic:
            guard let basic = body.basic else { throw invalid("a BASIC definition needs basic.username") }
            auth = .basic(username: basic.username, password: basic.password)
        case .bearerToken: auth = .bearerToken(token: body.bearerToken)
        case .apiKey:
            guard let key = body.apiKey else { throw invalid("an API_KEY definition needs apiKey.placement and apiKey.name") }
            auth = .apiKey(placement: try choice(key.placement, "apiKey.placement"), name: key.name, value: key.value)
        case .oauth2:
            guard let settings = body.oauth2 else { throw invalid("an OAUTH2 definition needs oauth2") }
            auth = .oauth2(.init(
                grant: try choice(settings.grant, "oauth2.grant"),
                authorizationEndpoint: try settings.authorizationEndpoint.map { try url($0, "oauth2.authorizationEndpoint") },
                tokenEndpoint: try url(settings.tokenEndpoint, "oauth2.tokenEndpoint"), clientID: settings.clientId,
                clientSecret: settings.clientSecret, scopes: settings.scopes ?? [], authorizationParams: settings.authorizationParams ?? [:],
                rotatesRefreshTokens: settings.rotatesRefreshTokens ?? false,
                tokenEndpointAuth: try choice(settings.tokenEndpointAuthMethod, "oauth2.tokenEndpointAuthMethod", default: .clientSecretBasic)))
        }
        // Settings of another auth type would be silently dropped: say so instead.
        let stray = [("basic", body.basic != nil && type != .basic), ("bearerToken", body.bearerToken != nil && type != .bearerToken),
                     ("apiKey", body.apiKey != nil && type != .apiKey), ("oauth2", body.oauth2 != nil && type != .oauth2)]
        if let field = stray.first(where: \.1)?.0 { throw invalid("\(field) does not belong to an \(type.rawValue) definition") }
        self.init(
            name: name, displayName: body.displayName, baseURL: try url(body.baseUrl, "baseUrl"), auth: auth, mode: try choice(body.mode, "mode"),
            development: body.development ?? false, metadata: body.metadata ?? [:])
    }
}
