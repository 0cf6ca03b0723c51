import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The Datacove dialect's sign-in, session and profile API under `/api`.
enum DatacoveRoutes {
    /// The device a sign-in comes from, as the app's headers name it.
    @Sendable static func device(_ request: Request, platform: String?) -> DeviceInfo {
        DeviceInfo(name: request.headers["X-Device-Name"].map { String($0.prefix(100)) }, platform: platform,
                   appVersion: request.headers["X-App-Version"].map { String($0.prefix(40)) })
    }

    static func register(
        on router: Router, accounts: AccountsEngine, commerce: CommerceEngine, directory: TenantDirectory, appStoreAPI: URL?, logger: Logger
    ) {
        let (apps, sessions, anyone) = (PlatformKeyAuthenticator(directory: directory), SessionAuthenticator(accounts: accounts), Anyone())
        let endpoints = DatacoveWire.Endpoints.self
        let device = Self.device
        // Every error under the dialect's prefixes answers in its envelope, through one renderer.
        for prefix in ["/api/auth", "/api/users", "/api/purchases"] {
            router.renderErrors(under: prefix) { error, path, context in DatacoveError.render(error, path: path, context: context, logger: logger) }
        }

        @Sendable func requestCode(_ channel: SignInChannel, _ request: Request, _ app: PlatformKeyAuthenticator.App) async throws -> Response {
            let (identifier, name) =
                channel == .phone ? try DatacoveBody.phoneCodeRequest(request).identified : try DatacoveBody.emailCodeRequest(request).identified
            try await accounts.requestCode(tenantID: app.tenantID, channel: channel, identifier: identifier, name: name)
            return try .json(DatacoveWire.Success())
        }
        @Sendable func verifyCode(_ channel: SignInChannel, _ request: Request, _ app: PlatformKeyAuthenticator.App) async throws -> Response {
            let (identifier, code) =
                channel == .phone ? try DatacoveBody.phoneCodeCheck(request).identified : try DatacoveBody.emailCodeCheck(request).identified
            let pair = try await accounts.verifyCode(
                tenantID: app.tenantID, channel: channel, identifier: identifier, code: code, device: device(request, app.platform))
            return try .json(SessionJSON.tokens(pair))
        }
        router.on(endpoints.requestPhoneCode, apps) { request, _, app in try await requestCode(.phone, request, app) }
        router.on(endpoints.verifyPhoneCode, apps) { request, _, app in try await verifyCode(.phone, request, app) }
        router.on(endpoints.requestEmailCode, apps) { request, _, app in try await requestCode(.email, request, app) }
        router.on(endpoints.verifyEmailCode, apps) { request, _, app in try await verifyCode(.email, request, app) }
        router.on(endpoints.activate, sessions) { _, _, who in try .json(SessionJSON.tokens(try await accounts.activate(who))) }
        router.on(endpoints.refresh, anyone) { request, _, _ in
            try .json(SessionJSON.tokens(try await accounts.sessions.refresh(try DatacoveBody.refreshRequest(request).refreshToken)))
        }
        router.on(endpoints.logout, sessions) { _, _, who in
            try await accounts.sessions.signOut(accountID: who.accountId, sessionID: who.sessionId)
            return .empty()
        }
        router.on(endpoints.sessions, sessions) { _, _, who in
            try .json(SessionJSON.sessions(try await accounts.sessions.sessions(accountID: who.accountId), current: who.sessionId))
        }
        router.on(endpoints.signOutSession, sessions) { _, context, who in
            do {
                try await accounts.sessions.signOut(accountID: who.accountId, sessionID: context.parameter("id"))
            } catch let error as SessionError where error.code == .sessionNotFound {
                // The caller's own session is live (its check said so): the one named is not there.
                // SESSION_NOT_FOUND would tell the app that its own session ended.
                throw DatacoveError(status: 404, code: "NOT_FOUND", message: "No such session of this account.")
            }
            return .empty()
        }
        router.on(endpoints.verifyPurchase, sessions) { request, _, who in
            let body = try DatacoveBody.verifyPurchase(request)
            // A Play purchase is reported from the Android app: the session's key said which app signed in.
            if body.platform == "google", who.platform != "ANDROID" {
                throw PurchaseError(.purchaseInvalid, .google(.notAndroid))
            }
            let report = PurchaseReport(
                platform: body.platform, platformProductId: body.platformProductId, transactionId: body.transactionId ?? "",
                signedTransaction: body.signedTransaction, purchaseToken: body.purchaseToken,
                transferToCurrentAccount: body.transferToCurrentAccount ?? false)
            let outcome = try await commerce.verifyPurchase(tenantID: who.tenantId, accountID: who.accountId, report, appStoreAPIOverride: appStoreAPI)
            return try .json(PurchaseJSON.outcome(outcome))
        }
        router.on(endpoints.entitlement, sessions) { _, _, who in
            try .json(PurchaseJSON.summary(try await commerce.entitlementSummary(tenantID: who.tenantId, accountID: who.accountId, platform: who.platform)))
        }
        router.on(endpoints.startTrial, sessions) { _, _, who in
            try .json(PurchaseJSON.summary(try await commerce.startTrial(tenantID: who.tenantId, accountID: who.accountId, platform: who.platform)))
        }
        router.on(endpoints.profile, sessions) { _, _, who in
            // The profile and the wallet in one read transaction.
            let (profile, wallet) = try await accounts.profile(who) { db in
                try CommerceEngine.wallet(db, tenantID: who.tenantId, accountID: who.accountId)
            }
            return try .json(SessionJSON.profile(profile, wallet: wallet))
        }
        router.on(endpoints.updateProfile, sessions) { request, _, who in
            let body = try DatacoveBody.decode(DatacoveWire.ProfileUpdate.self, request, unknownKeys: .refuse)
            let profile = try await accounts.updateProfile(who, name: body.name, timezone: body.timezone)
            return try .json(SessionJSON.profile(profile, wallet: try await commerce.wallet(tenantID: who.tenantId, accountID: who.accountId)))
        }
        router.on(endpoints.deleteAccount, sessions) { _, _, who in
            try await accounts.deleteAccount(who)
            return .empty()
        }
    }
}
