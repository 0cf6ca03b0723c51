import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The Datacove dialect's sign-in, session and profile API under `/api`.
enum DatacoveRoutes {
    static func register(
        on router: Router, accounts: AccountsEngine, commerce: CommerceEngine, directory: TenantDirectory, appStoreAPI: URL?, logger: Logger
    ) {
        /// Wraps a handler so every failure answers in the Datacove envelope.
        func handler(_ body: @escaping @Sendable (Request, RequestContext) async throws -> Response) -> Handler {
            .async { request, context in
                do {
                    return try await body(request, context)
                } catch {
                    return DatacoveError.from(error, path: request.rawPath, context: context, log: { logger.error($0) })
                        .response(context: context)
                }
            }
        }
        /// The tenant of the `x-api-key` of a sign-in call, and the key's platform.
        func tenant(_ request: Request) async throws -> (id: String, platform: String?) {
            guard let presented = request.headers["x-api-key"], let key = try await directory.authenticate(apiKey: presented), key.platform != nil
            else { throw DatacoveError(status: 401, code: "API_KEY_INVALID", message: "The API key is missing or not valid.", path: request.rawPath) }
            return (key.tenantId, key.platform)
        }
        func principal(_ request: Request) async throws -> SessionPrincipal {
            guard let token = request.bearerToken else { throw SessionError(.tokenInvalid) }
            return try await accounts.sessions.authenticate(accessToken: token, appVersion: request.headers["X-App-Version"])
        }
        func device(_ request: Request, platform: String?) -> DeviceInfo {
            DeviceInfo(name: request.headers["X-Device-Name"].map { String($0.prefix(100)) }, platform: platform,
                       appVersion: request.headers["X-App-Version"].map { String($0.prefix(40)) })
        }
        let success = Data(#"{"success":true}"#.utf8)
        // Unknown paths, wrong methods and oversized bodies answer in this dialect's envelope too.
        for prefix in ["/api/auth", "/api/users", "/api/purchases"] {
            router.renderErrors(under: prefix) { error, path, context in
                var response = DatacoveError(status: error.status, code: DatacoveError.code(of: error), message: error.message, path: path)
                    .response(context: context)
                for (name, value) in error.headers { response.headers.set(name, value) }
                return response
            }
        }

        router.group("/api/auth/v1") { auth in
            for channel in [SignInChannel.phone, .email] {
                let prefix = channel == .phone ? "/mobile" : "/email"
                auth.post(prefix + "/request-otp", handler { request, _ in
                    let (tenantID, _) = try await tenant(request)
                    let body = try DatacoveBody(request)
                    try await accounts.requestCode(
                        tenantID: tenantID, channel: channel, identifier: try body.identifier(channel), name: try body.optionalString("name"))
                    return .json(raw: success)
                })
                auth.post(prefix + "/verify-otp", handler { request, _ in
                    let (tenantID, platform) = try await tenant(request)
                    let body = try DatacoveBody(request)
                    let pair = try await accounts.verifyCode(
                        tenantID: tenantID, channel: channel, identifier: try body.identifier(channel), code: try body.string("otp"),
                        device: device(request, platform: platform))
                    return try .json(pair)
                })
            }
            auth.post("/activate", handler { request, _ in try .json(try await accounts.activate(try await principal(request))) })
            auth.post("/refresh", handler { request, _ in
                try .json(try await accounts.sessions.refresh(try DatacoveBody(request).string("refreshToken")))
            })
            auth.post("/logout", handler { request, _ in
                let who = try await principal(request)
                try await accounts.sessions.signOut(accountID: who.accountId, sessionID: who.sessionId)
                return .empty()
            })
            auth.get("/sessions", handler { request, _ in
                let who = try await principal(request)
                let list = try await accounts.sessions.sessions(accountID: who.accountId)
                return try .json(DatacoveSessions(data: list.map { DatacoveSessions.Item($0, current: $0.id == who.sessionId) }))
            })
            auth.delete("/sessions/:id", handler { request, context in
                let who = try await principal(request)
                try await accounts.sessions.signOut(accountID: who.accountId, sessionID: context.parameter("id"))
                return .empty()
            })
        }
        router.group("/api/purchases/v1") { purchases in
            purchases.post("/verify-purchase", handler { request, _ in
                let who = try await principal(request)
                let body = try DatacoveBody(request)
                try body.onlyKeys(["platform", "platformProductId", "transactionId", "signedTransaction", "transferToCurrentAccount"])
                let report = PurchaseReport(
                    platform: try body.string("platform"), platformProductId: try body.string("platformProductId"),
                    transactionId: try body.string("transactionId"), signedTransaction: try body.optionalString("signedTransaction"),
                    transferToCurrentAccount: try body.optionalBool("transferToCurrentAccount") ?? false)
                let outcome = try await commerce.verifyPurchase(
                    tenantID: who.tenantId, accountID: who.accountId, report, appStoreAPIOverride: appStoreAPI)
                return try .json(PurchaseJSON.outcome(outcome))
            })
            purchases.get("/entitlement", handler { request, _ in
                let who = try await principal(request)
                return try .json(PurchaseJSON.summary(try await commerce.entitlementSummary(tenantID: who.tenantId, accountID: who.accountId)))
            })
            purchases.post("/trial/start", handler { request, _ in
                let who = try await principal(request)
                return try .json(PurchaseJSON.summary(try await commerce.startTrial(tenantID: who.tenantId, accountID: who.accountId)))
            })
        }
        router.group("/api/users/v1") { users in
            users.get("/profile", handler { request, _ in
                let who = try await principal(request)
                return try .json(DatacoveProfile(try await accounts.profile(who), wallet: try await commerce.wallet(tenantID: who.tenantId, accountID: who.accountId)))
            })
            users.patch("/profile", handler { request, _ in
                let who = try await principal(request)
                let body = try DatacoveBody(request)
                try body.onlyKeys(["name", "timezone"])
                let profile = try await accounts.updateProfile(who, name: try body.optionalString("name"), timezone: try body.optionalString("timezone"))
                return try .json(DatacoveProfile(profile, wallet: try await commerce.wallet(tenantID: who.tenantId, accountID: who.accountId)))
            })
            users.delete("/account", handler { request, _ in
                try await accounts.deleteAccount(try await principal(request))
                return .empty()
            })
        }
    }
}
