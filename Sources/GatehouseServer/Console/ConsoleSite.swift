import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseDatabase
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehousePossessionEngine
import GatehouseVerificationEngine
import GatehouseWorkflowsEngine

/// The operators' console: server-rendered pages on a listener of its own, over the same
/// engines as the admin API (nothing copied into a store of its own). Every page is behind
/// the session cookie; every form carries the session's token; every change an operator
/// makes is audited in the transaction that makes it.
struct ConsoleSite: Sendable {
    let console: ConsoleEngine
    let directory: TenantDirectory
    let verification: VerificationEngine
    let accounts: AccountsEngine
    let commerce: CommerceEngine
    let workflows: WorkflowsEngine
    let managedAPIs: ManagedAPIsEngine
    let possession: PossessionEngine
    let environment: Environment
    let cookie: ConsoleCookie
    let sessions: ConsoleSessionAuthenticator
    /// Sign-in attempts per client address and minute, before any password is hashed.
    let signIns: PerMinuteLimit

    /// `scheme://host[:port]` of the console as operators reach it, when configured.
    let origin: String?
    /// The listener's own host, one more name the console answers to without `origin`.
    let listenerHost: String

    init(console: ConsoleEngine, engines: ConsoleSources, secure: Bool, origin: String?, listenerHost: String = "127.0.0.1") {
        self.console = console
        self.origin = origin
        self.listenerHost = listenerHost
        (directory, verification, accounts, commerce) = (engines.directory, engines.verification, engines.accounts, engines.commerce)
        (workflows, managedAPIs, possession) = (engines.workflows, engines.managedAPIs, engines.possession)
        environment = console.environment
        cookie = ConsoleCookie(secure: secure)
        sessions = ConsoleSessionAuthenticator(console: console, cookie: cookie)
        signIns = PerMinuteLimit(name: "console-sign-in", perMinute: 10, environment: console.environment) { ConsoleFailure.tooManyRequests(retryAfter: $0) }
    }

    /// Every route of the console, on a router of its own.
    func register(on router: Router) {
        let logger = environment.logger
        router.renderErrors(under: "/") { error, _, context in
            var response = ConsoleFailure.render(error, context: context) { logger.error("console request failed", ["error": "\($0)"]) }
            ConsoleHeaders.apply(&response)
            return response
        }
        let site = router.group("/", middleware: [ConsoleRequestGuard(origin: origin, listenerHost: listenerHost)])
        ConsoleAssets.register(on: site)
        registerSignIn(on: site)
        registerOverview(on: site)
        registerTenants(on: site)
        registerPrefixBlocks(on: site)
        registerVerifications(on: site)
        registerAccounts(on: site)
        registerPurchases(on: site)
        registerWorkflows(on: site)
        registerIntegrations(on: site)
        registerOperators(on: site)
        registerAudit(on: site)
        registerPasskeys(on: site)
    }

    /// A page or action behind the session; `role: .admin` refuses viewers before the handler runs.
    func on(
        _ group: RouteGroup, _ method: HTTPMethod, _ path: String, role: ConsoleOperator.Role = .viewer,
        _ handler: @escaping @Sendable (Request, RequestContext, ConsoleSession) async throws -> Response
    ) {
        let sessions = self.sessions
        group.register(method, path, maxBodySize: 64 * 1024, .async { request, context in
            let session = try await sessions.authenticate(request, context: context)
            if role == .admin, session.account.role != .admin {
                throw ConsoleFailure.forbidden("Viewers can look but not act: this needs an admin.")
            }
            return try await handler(request, context, session)
        })
    }

    /// A destructive action goes ahead only within a few minutes of the password typed again.
    func requireConfirmation(_ session: ConsoleSession, returnTo: String) throws {
        guard session.isConfirmed(at: environment.clock.now) else { throw ConsoleFailure.confirmationNeeded(returnTo: returnTo) }
    }

    /// Runs `change` with its audit row joined to the change's own transaction.
    func audited<T: Sendable>(_ entry: AuditEntry, _ change: () async throws -> T) async throws -> T {
        let appendix = console.auditAppendix(entry)
        return try await TransactionAppendix.$current.withValue(appendix) { try await change() }
    }

    /// The notice a redirect asked for, from a fixed list (never text from the query).
    static func notice(_ request: Request) -> String? {
        request.queryValue("done").flatMap { notices[$0] }
    }

    static let notices: [String: String] = [
        "tenant-created": "Tenant created.", "tenant-disabled": "Tenant disabled: its keys and tokens are refused.",
        "tenant-enabled": "Tenant enabled.", "balance-changed": "Balance changed.", "key-revoked": "Key revoked.",
        "block-pinned": "Prefix pinned: codes to it are held back.", "block-lifted": "Block lifted.",
        "operator-removed": "Operator removed.", "confirmed": "Password confirmed for the next few minutes.",
        "application-created": "Application created.", "signed-out": "Signed out.", "account-deleted": "Account deleted.",
        "run-cancelled": "Run cancelled: its credits were given back.",
        "passkey-added": "Passkey added: use it to sign in instead of the code.", "passkey-removed": "Passkey removed.",
    ]
}

/// The engines whose data the console shows: the same instances the APIs use.
struct ConsoleSources: Sendable {
    let directory: TenantDirectory
    let verification: VerificationEngine
    let accounts: AccountsEngine
    let commerce: CommerceEngine
    let workflows: WorkflowsEngine
    let managedAPIs: ManagedAPIsEngine
    let possession: PossessionEngine
}
