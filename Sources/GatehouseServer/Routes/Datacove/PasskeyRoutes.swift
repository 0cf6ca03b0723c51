import Foundation
import GatehouseAccountsEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// Passkeys in the Datacove dialect: a signed-in account registers and manages its passkeys;
/// an app signs in with one (discoverable, or for a phone or email), receiving the same pair as
/// a code's sign-in; the tenant's relying party is set with the admin token; and
/// `/.well-known/apple-app-site-association` names the iOS apps of the relying party the host is.
enum PasskeyRoutes {
    static func register(
        on router: Router, accounts: AccountsEngine, directory: TenantDirectory, adminToken: String?, signInOptions: PerMinuteLimit,
        device: @escaping @Sendable (Request, String?) -> DeviceInfo
    ) {
        let (apps, sessions) = (PlatformKeyAuthenticator(directory: directory), SessionAuthenticator(accounts: accounts))
        let endpoints = DatacoveWire.Endpoints.self
        router.on(endpoints.passkeyCreationOptions, sessions) { _, _, who in
            try .json(PasskeyJSON.creation(try await accounts.passkeyCreationOptions(who)))
        }
        router.on(endpoints.registerPasskey, sessions) { request, _, who in
            let body = try DatacoveBody.decode(DatacoveWire.PasskeyRegistration.self, request)
            let passkey = try await accounts.registerPasskey(who, response: try PasskeyJSON.registration(body.credential), name: body.name)
            return try .json(PasskeyJSON.info(passkey), status: 201)
        }
        router.on(endpoints.passkeys, sessions) { _, _, who in
            try .json(DatacoveWire.PasskeyList(passkeys: try await accounts.passkeys(who).map(PasskeyJSON.info)))
        }
        router.on(endpoints.renamePasskey, sessions) { request, context, who in
            let body = try DatacoveBody.decode(DatacoveWire.PasskeyRename.self, request, unknownKeys: .refuse)
            return try .json(PasskeyJSON.info(try await accounts.renamePasskey(who, id: context.parameter("id"), name: body.name)))
        }
        router.on(endpoints.deletePasskey, sessions) { _, context, who in
            try await accounts.deletePasskey(who, id: context.parameter("id"))
            return .empty()
        }
        router.on(endpoints.passkeySignInOptions, apps) { request, context, app in
            // Counted like request-otp: per address and app, before anything is kept.
            try signInOptions.count(context.clientAddress + "\n" + app.tenantID)
            let body = try DatacoveBody.decode(DatacoveWire.PasskeySignInOptionsRequest.self, request, unknownKeys: .refuse)
            guard body.phoneNumber == nil || body.email == nil else { throw DatacoveError.validation("send phoneNumber or email, not both") }
            let identifier: (SignInChannel, String)? = body.phoneNumber.map { (.phone, $0) } ?? body.email.map { (.email, $0) }
            return try .json(PasskeyJSON.request(try await accounts.passkeyRequestOptions(tenantID: app.tenantID, identifier: identifier)))
        }
        router.on(endpoints.passkeySignIn, apps) { request, _, app in
            let body = try DatacoveBody.decode(DatacoveWire.PasskeySignIn.self, request)
            let pair = try await accounts.signInWithPasskey(
                tenantID: app.tenantID, response: try PasskeyJSON.assertion(body.credential), device: device(request, app.platform))
            return try .json(SessionJSON.tokens(pair))
        }

        let (admin, store) = (AdminAuthentication(directory: directory, configuredToken: adminToken), DatacoveWire.Endpoints.Store.self)
        router.on(store.putPasskeyConfig, admin) { request, context, _ in
            let body = try DatacoveBody.decode(DatacoveWire.PasskeyConfig.self, request, unknownKeys: .refuse)
            let config = PasskeyConfig(rpID: body.rpId, rpName: body.rpName, origins: body.origins, iosAppIDs: body.iosAppIds, enabled: body.enabled)
            return try .json(PasskeyJSON.config(try await accounts.setPasskeyConfig(tenantID: context.parameter("tenantId"), config)))
        }
        router.on(store.passkeyConfig, admin) { _, context, _ in
            _ = try await directory.tenant(id: context.parameter("tenantId"))
            guard let config = try await accounts.passkeyConfig(tenantID: context.parameter("tenantId")) else {
                throw DatacoveError(status: 404, code: "NOT_FOUND", message: "Passkeys are not configured for this tenant.")
            }
            return try .json(PasskeyJSON.config(config))
        }
        router.on(OperatorEndpoints.appleAppSiteAssociation, Anyone()) { request, _, _ in
            guard let apps = try await accounts.associatedApps(host: request.headers["Host"] ?? "") else {
                throw HTTPError.notFound("no relying party is this host")
            }
            struct Association: Encodable {
                struct Credentials: Encodable { let apps: [String] }
                let webcredentials: Credentials
            }
            return try .json(Association(webcredentials: .init(apps: apps)))
        }
    }
}
