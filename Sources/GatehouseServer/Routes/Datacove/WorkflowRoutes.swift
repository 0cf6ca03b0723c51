import Foundation
import GatehouseAccountsEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire
import GatehouseWorkflowsEngine

/// The Datacove dialect's workflows and reports (seed 000 §05–§06) under `/api/workflows`.
enum WorkflowRoutes {
    struct Options: Sendable {
        var uploads: UploadPolicy
        /// Seconds between `: ping` comments on an idle report stream.
        var heartbeat: TimeInterval = 15
    }

    /// An upload is refused on its head, before a byte of it is read, unless it carries a
    /// valid session and `X-App-Version`: no one without a session can fill the disk.
    static func admitsUpload(accounts: AccountsEngine) -> @Sendable (HTTPHeaders) async -> HTTPError? {
        { headers in
            guard appVersion(headers) != nil else {
                return HTTPError(status: 400, code: "APP_VERSION_REQUIRED", message: "Every execute call must send X-App-Version.")
            }
            do {
                _ = try await SessionAuthenticator(accounts: accounts).authenticate(headers: headers)
                return nil
            } catch {
                let refusal = DatacoveError(mapping: error)
                    ?? DatacoveError(status: 503, code: "SERVICE_UNAVAILABLE", message: "The session could not be checked; try again.")
                return HTTPError(status: refusal.status, code: refusal.code ?? "UNAUTHENTICATED", message: refusal.message)
            }
        }
    }

    /// `X-App-Version` as a version: 1 to 64 printable ASCII characters (`3.1.0`, `3.1.0 (42)`).
    static func appVersion(_ headers: HTTPHeaders) -> String? {
        guard let version = headers["X-App-Version"]?.trimmingCharacters(in: .whitespaces), !version.isEmpty, version.utf8.count <= 64,
            version.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { return nil }
        return version
    }

    static func register(on router: Router, engine: WorkflowsEngine, accounts: AccountsEngine, options: Options, logger: Logger) {
        router.renderErrors(under: "/api/workflows") { error, path, context in DatacoveError.render(error, path: path, context: context, logger: logger) }
        let (sessions, endpoints) = (SessionAuthenticator(accounts: accounts), DatacoveWire.Endpoints.Workflows.self)
        let streams = StreamSlots()
        router.on(endpoints.catalogue, sessions) { request, context, who in
            let page = try WorkflowRequest.page(context.parameter("id"), name: "pageNo")
            let size = try WorkflowRequest.page(context.parameter("pageSize"), name: "pageSize")
            let catalogue = try await engine.catalogue(tenantID: who.tenantId, page: page, pageSize: size, try WorkflowRequest.query(request))
            return try .json(WorkflowJSON.catalogue(catalogue))
        }
        router.on(endpoints.workflow, sessions) { _, context, who in
            let (definition, gated) = try await engine.workflow(tenantID: who.tenantId, id: context.parameter("id"))
            return try .json(WorkflowJSON.workflow(definition, gated: gated, withInputs: true))
        }
        router.on(endpoints.execute, sessions, uploads: options.uploads) { request, _, who in
            guard Self.appVersion(request.headers) != nil else {
                throw DatacoveError(status: 400, code: "APP_VERSION_REQUIRED", message: "Every execute call must send X-App-Version.")
            }
            var command = try WorkflowRequest.execute(request)
            command.tenantID = who.tenantId
            command.accountID = who.accountId
            return try .json(WorkflowJSON.executed(try await engine.execute(command)))
        }
        router.on(endpoints.history, sessions) { _, context, who in
            let page = try WorkflowRequest.page(context.parameter("page"), name: "page")
            let limit = try WorkflowRequest.page(context.parameter("limit"), name: "limit")
            return try .json(WorkflowJSON.history(try await engine.history(tenantID: who.tenantId, accountID: who.accountId, page: page, pageSize: limit)))
        }
        router.on(endpoints.stream, sessions) { request, context, who in
            let resume = try WorkflowRequest.lastEventID(request)
            // The session is checked again at every heartbeat: a sign-out or an expired token ends the stream.
            let stillSignedIn: @Sendable () async -> Bool = { (try? await sessions.authenticate(request, context: context)) != nil }
            guard let slot = streams.open(who.tenantId + " " + who.accountId) else {
                throw DatacoveError(
                    status: 429, code: "TOO_MANY_STREAMS", message: "This account has \(StreamSlots.perAccount) report streams open already.")
            }
            return ReportStream(
                slot: slot, engine: engine, tenantID: who.tenantId, accountID: who.accountId, heartbeat: options.heartbeat, stillSignedIn: stillSignedIn
            ).response(resumingAfter: resume)
        }
        router.on(endpoints.report, sessions) { _, context, who in
            try .json(WorkflowJSON.report(try await engine.report(tenantID: who.tenantId, accountID: who.accountId, eventID: context.parameter("eventId"))))
        }
        WorkerRoutes.register(on: router, engine: engine)
    }
}
