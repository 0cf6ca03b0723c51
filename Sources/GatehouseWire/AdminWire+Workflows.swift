import GatehouseFormats

extension AdminWire {
    /// A workflow definition as `PUT /admin/v1/tenants/:id/workflows/:workflowId` takes it and
    /// the admin API answers it (the CLI sends the same).
    public struct WorkflowDefinition: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, description, category, featured, credits, enabled, responseType, timeoutSeconds, executor, inputs
        }
        /// Like `wf-sec-001`; in a PUT, the path's id is used when this is left out.
        public var id: String?
        public var name: String
        public var description: String?
        public var category: String?
        public var featured: Bool?
        /// Credits one run costs (0 when left out).
        public var credits: Int?
        public var enabled: Bool?
        /// `sync` or `event` (the default).
        public var responseType: String?
        /// Seconds a run may take (600 when left out).
        public var timeoutSeconds: Int?
        public var executor: Executor
        public var inputs: [DatacoveWire.WorkflowInput]?

        /// A definition.
        public init(
            id: String?, name: String, description: String? = nil, category: String? = nil, featured: Bool? = nil, credits: Int? = nil,
            enabled: Bool? = nil, responseType: String? = nil, timeoutSeconds: Int? = nil, executor: Executor,
            inputs: [DatacoveWire.WorkflowInput]? = nil
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.category = category
            self.featured = featured
            self.credits = credits
            self.enabled = enabled
            self.responseType = responseType
            self.timeoutSeconds = timeoutSeconds
            self.executor = executor
            self.inputs = inputs
        }

        /// `{kind, config}`: `document-digest`, `url-check`, `webhook` or `openai`, with its settings.
        public struct Executor: Codable, Sendable, Equatable {
            public var kind: String
            public var config: [String: JSONValue]?
            /// An executor choice.
            public init(kind: String, config: [String: JSONValue]? = nil) {
                self.kind = kind
                self.config = config
            }
        }
    }

    /// A tenant's executor settings as the admin API answers them: the secrets only as
    /// whether one is set.
    public struct WorkflowSettings: Codable, Sendable, Equatable {
        public var workerUrl: String?
        public var hasWorkerSecret: Bool
        public var openaiBaseUrl: String?
        public var hasOpenaiApiKey: Bool
        public var openaiModel: String?
        public var maxConcurrentRuns: Int
        /// Settings.
        public init(
            workerUrl: String?, hasWorkerSecret: Bool, openaiBaseUrl: String?, hasOpenaiApiKey: Bool, openaiModel: String?, maxConcurrentRuns: Int
        ) {
            self.workerUrl = workerUrl
            self.hasWorkerSecret = hasWorkerSecret
            self.openaiBaseUrl = openaiBaseUrl
            self.hasOpenaiApiKey = hasOpenaiApiKey
            self.openaiModel = openaiModel
            self.maxConcurrentRuns = maxConcurrentRuns
        }
    }

    /// `PATCH …/workflow-settings`: a field left out keeps its value, `null` clears it.
    public struct WorkflowSettingsPatch: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case workerUrl, workerSecret, openaiBaseUrl, openaiApiKey, openaiModel, maxConcurrentRuns
        }
        public var workerUrl: Nullable<String>?
        public var workerSecret: Nullable<String>?
        public var openaiBaseUrl: Nullable<String>?
        public var openaiApiKey: Nullable<String>?
        public var openaiModel: Nullable<String>?
        public var maxConcurrentRuns: Int?
        /// A patch.
        public init(
            workerUrl: Nullable<String>? = nil, workerSecret: Nullable<String>? = nil, openaiBaseUrl: Nullable<String>? = nil,
            openaiApiKey: Nullable<String>? = nil, openaiModel: Nullable<String>? = nil, maxConcurrentRuns: Int? = nil
        ) {
            self.workerUrl = workerUrl
            self.workerSecret = workerSecret
            self.openaiBaseUrl = openaiBaseUrl
            self.openaiApiKey = openaiApiKey
            self.openaiModel = openaiModel
            self.maxConcurrentRuns = maxConcurrentRuns
        }
    }

    /// `POST …/accounts/:accountId/credits`: an operator's grant of WALLET credits.
    public struct CreditGrant: Codable, Sendable, Equatable {
        public var credits: Int
        /// A grant.
        public init(credits: Int) { self.credits = credits }
    }

    /// The balance after a grant.
    public struct WalletBalance: Codable, Sendable, Equatable {
        public var wallet: Int
        /// A balance.
        public init(wallet: Int) { self.wallet = wallet }
    }
}
