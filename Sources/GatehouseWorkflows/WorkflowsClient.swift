import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Datacove workflows and reports API (seed 000 §05–§06) over the signed-in session.
///
/// The session is a token source, so this module needs no sign-in module; with `GatehouseAuth`:
///
///     let workflows = WorkflowsClient(baseURL: api) { rejected in try await auth.session.validAccessToken(rejected: rejected) }
public final class WorkflowsClient: Sendable {
    /// The session's access token: `rejected` is `nil` first, or the token the server just refused.
    public typealias AccessToken = @Sendable (_ rejected: String?) async throws -> String

    let http: HTTPClient
    let accessToken: AccessToken
    let bearer: CredentialInterceptor<String>
    /// Sent on every call as `X-App-Version` (seed 000 §09.8).
    public let appVersion: String
    let waiting: WaitSettings
    let foreground = ForegroundSignal()

    /// How `waitForReport` paces itself.
    public struct WaitSettings: Sendable {
        /// The first poll's delay; each next one doubles it, up to `maxPollInterval`.
        public var pollInterval: TimeInterval = 2
        /// The longest delay between two polls.
        public var maxPollInterval: TimeInterval = 15
        /// The longest delay before the stream is opened again after it dropped.
        public var maxReconnectDelay: TimeInterval = 15
        /// Default settings.
        public init() {}
    }

    /// A client of the Datacove `/api` base. `appVersion` defaults to the bundle's
    /// `CFBundleShortVersionString`.
    public init(
        baseURL: URL, appVersion: String? = nil, transport: any Transport = URLSessionTransport(), waiting: WaitSettings = WaitSettings(),
        accessToken: @escaping AccessToken
    ) {
        let version = appVersion ?? (Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String) ?? "0"
        self.appVersion = version
        self.accessToken = accessToken
        self.waiting = waiting
        bearer = .bearer(accessToken)
        http = HTTPClient(
            baseURL: baseURL, transport: transport, headers: ["X-App-Version": version], accept: "application/json",
            hooks: WorkflowsError.hooks)
    }

    // MARK: - Catalogue

    /// One page of the tenant's workflows, filtered and searched (name and description, any case and accents).
    public func workflows(page: Int = 1, pageSize: Int = 20, search: String? = nil, category: String? = nil, featured: Bool? = nil)
        async throws -> DatacoveWire.Page<DatacoveWire.Workflow>
    {
        var items: [URLQueryItem] = []
        if let search { items.append(URLQueryItem(name: "search", value: search)) }
        if let category { items.append(URLQueryItem(name: "category", value: category)) }
        if let featured { items.append(URLQueryItem(name: "featured", value: featured ? "true" : "false")) }
        var components = URLComponents(url: http.url(WorkflowEndpoints.catalogue, below: DatacoveWire.Endpoints.mount, ["id": String(page), "pageSize": String(pageSize)]), resolvingAgainstBaseURL: false)!
        if !items.isEmpty { components.queryItems = items }
        return try await get(components.url!, as: DatacoveWire.Page<DatacoveWire.Workflow>.self)
    }

    /// One workflow with its inputs.
    public func workflow(id: String) async throws -> DatacoveWire.Workflow {
        try await get(http.url(WorkflowEndpoints.workflow, below: DatacoveWire.Endpoints.mount, ["id": id]), as: DatacoveWire.Workflow.self)
    }

    /// An empty form for the workflow `id`.
    public func form(id: String) async throws -> WorkflowForm { WorkflowForm(workflow: try await workflow(id: id)) }

    // MARK: - Reports

    /// A run's report as it stands now.
    public func report(eventId: String) async throws -> DatacoveWire.Report {
        try await get(http.url(WorkflowEndpoints.report, below: DatacoveWire.Endpoints.mount, ["eventId": eventId]), as: DatacoveWire.Report.self)
    }

    /// The user's runs, newest first.
    public func history(page: Int = 1, limit: Int = 20) async throws -> DatacoveWire.Page<DatacoveWire.Report> {
        try await get(http.url(WorkflowEndpoints.history, below: DatacoveWire.Endpoints.mount, ["page": String(page), "limit": String(limit)]), as: DatacoveWire.Page<DatacoveWire.Report>.self)
    }

    /// Call when the app returns to the foreground: a waiting `waitForReport` polls at once
    /// (on iOS this is also observed by itself).
    public func appDidBecomeActive() { foreground.signal() }

    func get<Reply: Decodable>(_ url: URL, as type: Reply.Type) async throws -> Reply {
        let (answer, _) = try await bearer.send(HTTPClient.request("GET", url), through: http)
        guard (200..<300).contains(answer.status) else { throw WorkflowsError.from(answer) }
        return try http.decode(Reply.self, from: answer.data)
    }
}

/// The workflow endpoints, as the contract declares them (called under the SDK's base URL, `…/api`).
typealias WorkflowEndpoints = DatacoveWire.Endpoints.Workflows
