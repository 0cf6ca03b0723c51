import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The Datacove dialect's sign-in, session and profile API under `/api`.
enum DatacoveRoutes {
    /// The signed-in user of a request, from its bearer access token.
    static func principal(_ request: Request, accounts: AccountsEngine) async throws -> SessionPrincipal {
        try await SessionAuthenticator(accounts: accounts).authenticate(request, context: RequestContext(requestID: "", clientAddress: ""))
    }

    static func register(
        on router: Router, accounts: AccountsEngine, commerce: CommerceEngine, directory: TenantDirectory, appStoreAPI: URL?, logger: Logger
    ) {
        /// The tenant of the `x-api-key` of a sign-in call, and the key's platform.
        @Sendable func tenant(_ request: Request) async throws -> (id: String, platform: String?) {
            guard let presented = request.headers["x-api-key"], let key = try await directory.authenticate(apiKey: presented), key.platform != nil
            else { throw DatacoveError(status: 401, code: "API_KEY_INVALID", message: "The API key is missing or not valid.") }
            return (key.tenantId, key.platform)
        }
        @Sendable func principal(_ request: Request) async throws -> SessionPrincipal { try await Self.principal(request, accounts: accounts) }
        @Sendable func device(_ request: Request, platform: String?) -> DeviceInfo {
            DeviceInfo(name: request.headers["X-Device-Name"].map { String($0.prefix(100)) }, platform: platform,
                       appVersion: request.headers["X-App-Version"].map { String($0.prefix(40)) })
        }
                // Every error under the dialect's prefixes answers in its envelope, through one renderer.
        for prefix in ["/api/auth", "/api/users", "/api/purchases"] {
            router.renderErrors(under: prefix) { error, path, context in DatacoveError.render(error, path: path, context: context, logger: logger) }
        }

        router.group("/api/auth/v1") { auth in
            for channel in [SignInChannel.phone, .email] {
                let prefix = channel == .phone ? "/mobile" : "/email"
                auth.post(prefix + "/request-otp", .async { request, _ in
                    let (tenantID, _) = try await tenant(request)
                    let body = try DatacoveBody(request)
                    let (identifier, name) = channel == .phone
                        ? try body.phoneCodeRequest().identified : try body.emailCodeRequest().identified
                    try await accounts.requestCode(tenantID: tenantID, channel: channel, identifier: identifier, name: name)
                    return try .json(DatacoveWire.Success())
                })
                auth.post(prefix + "/verify-otp", .async { request, _ in
                    let (tenantID, platform) = try await tenant(request)
                    let body = try DatacoveBody(request)
                    let (identifier, code) = channel == .phone ? try body.phoneCodeCheck().identified : try body.emailCodeCheck().identified
                    let pair = try await accounts.verifyCode(
                        tenantID: tenantID, channel: channel, identifier: identifier, code: code, device: device(request, platform: platform))
                    return try .json(SessionJSON.tokens(pair))
                })
            }
            auth.post("/activate", .async { request, _ in try .json(SessionJSON.tokens(try await accounts.activate(try await principal(request)))) })
            auth.post("/refresh", .async { request, _ in
                try .json(SessionJSON.tokens(try await accounts.sessions.refresh(try DatacoveBody(request).refreshRequest().refreshToken)))
            })
            auth.post("/logout", .async { request, _ in
                let who = try await principal(request)
                try await accounts.sessions.signOut(accountID: who.accountId, sessionID: who.sessionId)
                return .empty()
            })
            auth.get("/sessions", .async { request, _ in
                let who = try await principal(request)
                let list = try await accounts.sessions.sessions(accountID: who.accountId)
                return try .json(SessionJSON.sessions(list, current: who.sessionId))
            })
            auth.delete("/sessions/:id", .async { request, context in
                let who = try await principal(request)
                do {
                    try await accounts.sessions.signOut(accountID: who.accountId, sessionID: context.parameter("id"))
                } catch let error as SessionError where error.code == .sessionNotFound {
                    // The caller's own session is live (principal said so): the one named is not there.
                    // SESSION_NOT_FOUND would tell the app that its own session ended.
                    throw DatacoveError(status: 404, code: "NOT_FOUND", message: "No such session of this account.")
                }
                return .empty()
            })
        }
        router.group("/api/purchases/v1") { purchases in
            purchases.post("/verify-purchase", .async { request, _ in
                let who = try await principal(request)
                let body = try DatacoveBody(request).verifyPurchase()
                let report = PurchaseReport(
                    platform: body.platform, platformProductId: body.platformProductId, transactionId: body.transactionId,
                    signedTransaction: body.signedTransaction, transferToCurrentAccount: body.transferToCurrentAccount ?? false)
                let outcome = try await commerce.verifyPurchase(
                    tenantID: who.tenantId, accountID: who.accountId, report, appStoreAPIOverride: appStoreAPI)
                return try .json(PurchaseJSON.outcome(outcome))
            })
            purchases.get("/entitlement", .async { request, _ in
                let who = try await principal(request)
                return try .json(PurchaseJSON.summary(try await commerce.entitlementSummary(tenantID: who.tenantId, accountID: who.accountId)))
            })
            purchases.post("/trial/start", .async { request, _ in
                let who = try await principal(request)
                return try .json(PurchaseJSON.summary(try await commerce.startTrial(tenantID: who.tenantId, accountID: who.accountId)))
            })
        }
        router.group("/api/users/v1") { users in
            users.get("/profile", .async { request, _ in
                let who = try await principal(request)
                return try .json(SessionJSON.profile(try await accounts.profile(who), wallet: try await commerce.wallet(tenantID: who.tenantId, accountID: who.accountId)))
            })
            users.patch("/profile", .async { request, _ in
                let who = try await principal(request)
                let body = try DatacoveBody(request).profileUpdate()
                let profile = try await accounts.updateProfile(who, name: body.name, timezone: body.timezone)
                return try .json(SessionJSON.profile(profile, wallet: try await commerce.wallet(tenantID: who.tenantId, accountID: who.accountId)))
            })
            users.delete("/account", .async { request, _ in
                try await accounts.deleteAccount(try await principal(request))
                return .empty()
            })
        }
    }
}
