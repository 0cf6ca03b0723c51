import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseExecutors
import GatehouseHTTP
import GatehouseWiring
import GatehouseWorkflowsEngine

/// The workflows engine with its built-in executors, the runner that works off its queue,
/// and its routes; runs are paid for by the commerce engine (`CommerceEngine+RunBilling`).
struct WorkflowsAssembly {
    let engine: WorkflowsEngine
    /// Runs the workflow runs executes queue.
    let runner: WorkflowRunner

    init(_ node: NodeParts, billing: CommerceEngine) throws {
        let settings = node.settings.workflows
        try FileManager.default.createDirectory(at: settings.uploadsDirectory, withIntermediateDirectories: true)
        let http = node.tenantHTTP
        engine = WorkflowsEngine(
            environment: node.environment, settings: settings, billing: billing,
            events: RunEventHub(channel: node.environment.invalidations.channel),
            executors: [
                DocumentDigestExecutor(),
                URLCheckExecutor(http: http, allowPrivateTargets: node.isDevelopment),
                WebhookWorkflowExecutor(http: http, clock: node.environment.clock, publicURL: node.publicURL),
                OpenAIWorkflowExecutor(http: http),
            ])
        runner = WorkflowRunner(engine: engine)
    }

    func register(on router: Router, admin: AdminRegistrar, accounts: AccountsEngine, commerce: CommerceEngine, node: NodeParts) {
        let settings = node.settings.workflows
        AdminWorkflowRoutes.register(on: admin, engine: engine, commerce: commerce)
        WorkflowRoutes.register(
            on: router, engine: engine, accounts: accounts,
            options: .init(
                uploads: UploadPolicy(
                    directory: settings.uploadsDirectory, maxBytes: Int(settings.maxUploadBytes) + (1 << 20),
                    admits: WorkflowRoutes.admitsUpload(accounts: accounts)),
                heartbeat: node.settings.workflowStreamHeartbeat),
            logger: node.logger)
    }
}
