import Foundation
import GatehouseAccountsEngine
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseWire

/// The managed APIs a signed-in device reads, and the proxy for `proxied` ones, under
/// `/api/managed-apis/v1`, in the Datacove envelope. Gatehouse's own refusals carry
/// `X-Gatehouse-Error`, so a 401 or 429 of the proxy is told apart from the upstream's.
enum ManagedAPIRoutes {
    struct Options: Sendable {
        var maxRequestBytes = 1 << 20
        /// Proxied calls per user and API per minute on this node.
        var perMinute = 120
    }

    static let prefix = ManagedAPIWire.Endpoints.prefix

    static func register(
        on router: Router, engine: ManagedAPIsEngine, accounts: AccountsEngine, proxy: ManagedAPIProxy, options: Options, logger: Logger
    ) {
        router.renderErrors(under: "/api/managed-apis") { error, path, context in
            var response = DatacoveError.render(error, path: path, context: context, logger: logger)
            response.headers.set(ManagedAPIWire.originHeader, DatacoveError(mapping: error)?.code ?? "INTERNAL_ERROR")
            return response
        }
        let sessions = SessionAuthenticator(accounts: accounts)
        let endpoints = ManagedAPIWire.Endpoints.self
        router.on(endpoints.list, sessions) { request, _, who in
            let list = ManagedAPIWire.DefinitionList(managedApis: try await engine.definitions(tenantID: who.tenantId).map(ManagedAPIWire.Definition.init))
            return try tagged(list, request: request)
        }
        router.on(endpoints.definition, sessions) { request, context, who in
            try tagged(ManagedAPIWire.Definition(try await engine.definition(tenantID: who.tenantId, name: context.parameter("name"))), request: request)
        }
        let calls = PerMinuteLimit(name: "managed-api", perMinute: options.perMinute, environment: engine.environment) { retryAfter in
            DatacoveError(status: 429, code: "RATE_LIMITED", message: "Too many calls of this API; try again later.", retryAfter: retryAfter)
        }
        for endpoint in endpoints.proxies {
            router.on(endpoint, sessions, maxBodySize: options.maxRequestBytes, body: .any) { request, context, who in
                let name = context.parameter("name")
                try calls.count("\(who.tenantId)\n\(who.accountId)\n\(name)")
                return try await proxy.send(request, tenantID: who.tenantId, name: name, rawPath: proxiedPath(request.rawPath))
            }
        }
    }

    /// The path after `/proxy`, percent-encoding kept as sent; empty for the base itself.
    static func proxiedPath(_ rawPath: String) -> String {
        // The router matched `/api/managed-apis/v1/<name>/proxy` on non-empty segments, so the
        // rest begins at the slash after the fifth of them; what follows is kept as sent.
        var seen = 0
        var index = rawPath.startIndex
        while index < rawPath.endIndex {
            let next = rawPath[index...].dropFirst().firstIndex(of: "/") ?? rawPath.endIndex
            if rawPath[index] == "/", rawPath.index(after: index) < next { seen += 1 }
            if seen == 5 { return String(rawPath[next...]) }
            index = next
        }
        return ""
    }

    /// A JSON answer with a strong `ETag` of its bytes; `If-None-Match` with it gets a 304.
    static func tagged<T: Encodable>(_ value: T, request: Request) throws -> Response {
        var response = try Response.json(value)
        let tag = "\"" + SHA256.hash(response.bodyData).prefix(16).hexString + "\""
        if let match = request.headers["If-None-Match"],
            match.split(separator: ",").contains(where: { let t = $0.trimmingCharacters(in: .whitespaces); return t == tag || t == "W/" + tag || t == "*" })
        {
            response = Response(status: 304)
        }
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "private, no-cache")
        return response
    }
}

extension ManagedAPIWire.Definition {
    /// The device's view: no auth setting, and only a direct OAuth 2.0 public client's endpoints.
    init(_ definition: ManagedAPIDefinition) {
        var client: ManagedAPIWire.OAuth2Client?
        if definition.mode == .direct, case .oauth2(let settings) = definition.auth, let authorize = settings.authorizationEndpoint {
            client = .init(
                authorizationEndpoint: authorize.absoluteString, tokenEndpoint: settings.tokenEndpoint.absoluteString, clientId: settings.clientID,
                scopes: settings.scopes, authorizationParams: settings.authorizationParams, rotatesRefreshTokens: settings.rotatesRefreshTokens)
        }
        self.init(
            name: definition.name, displayName: definition.displayName, baseUrl: definition.baseURL.absoluteString,
            authType: definition.auth.type.rawValue, mode: definition.mode.rawValue, metadata: definition.metadata, oauth2: client)
    }
}
