import GatehouseRules
import GatehouseFormats

extension DatacoveWire {
    /// An input of a workflow's form: the shape, and the rules the server and the SDK share.
    public typealias WorkflowInput = GatehouseRules.WorkflowInput

    /// A workflow of the catalogue. The list leaves `inputs` out; `GET workflows/v1/:id` has them.
    public struct Workflow: Codable, Sendable, Equatable {
        /// Its id, such as `wf-sec-001`.
        public var id: String
        /// Its name.
        public var name: String
        /// What it does.
        public var description: String
        /// Its category, for filtering.
        public var category: String
        /// Whether the catalogue features it.
        public var featured: Bool
        /// Credits one run costs, taken from `wallet.WALLET`.
        public var credits: Int
        /// `sync` (execute answers the result) or `event` (execute answers an `eventId`).
        public var responseType: String
        /// Whether a plan or trial is needed to run it.
        public var gated: Bool
        /// The form's inputs (one workflow only).
        public var inputs: [WorkflowInput]?

        /// A workflow.
        public init(
            id: String, name: String, description: String, category: String, featured: Bool, credits: Int, responseType: String,
            gated: Bool, inputs: [WorkflowInput]?
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.category = category
            self.featured = featured
            self.credits = credits
            self.responseType = responseType
            self.gated = gated
            self.inputs = inputs
        }
    }

    /// `{data, meta}`: one page of a list.
    public struct Page<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        /// The items of this page.
        public var data: [Item]
        /// Where this page sits.
        public var meta: PageMeta

        /// A page.
        public init(data: [Item], meta: PageMeta) {
            self.data = data
            self.meta = meta
        }
    }

    /// `{page, pageSize, total, totalPages}`.
    public struct PageMeta: Codable, Sendable, Equatable {
        /// This page's number, from 1.
        public var page: Int
        /// Items per page.
        public var pageSize: Int
        /// Items in all pages.
        public var total: Int
        /// Pages in all.
        public var totalPages: Int

        /// Page facts.
        public init(page: Int, pageSize: Int, total: Int, totalPages: Int) {
            self.page = page
            self.pageSize = pageSize
            self.total = total
            self.totalPages = totalPages
        }
    }

    /// The JSON body of `POST workflows/v1/execute`: `{id, input}`. A multipart body carries
    /// the same two as text fields (`input` as a JSON string) and one part per file.
    public struct ExecuteRequest: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case id, input }
        /// The workflow's id.
        public var id: String
        /// The non-file inputs by key.
        public var input: [String: JSONValue]

        /// An execute request.
        public init(id: String, input: [String: JSONValue]) {
            self.id = id
            self.input = input
        }

        /// A left-out or `null` `input` is no inputs.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            input = try container.decodeIfPresent([String: JSONValue].self, forKey: .input) ?? [:]
        }
    }

    /// The answer of execute. A `sync` workflow answers its `result`; an `event` one answers
    /// an `eventId` to follow (seed 000 §05, "Two kinds of response").
    public struct ExecuteResponse: Codable, Sendable, Equatable {
        /// The run to follow, for an `event` workflow.
        public var eventId: String?
        /// `queued`, `running`, `succeeded`, `failed` or `timed_out`.
        public var status: String
        /// The report of a finished `sync` run.
        public var result: JSONValue?
        /// Why a finished `sync` run failed.
        public var error: ReportError?
        /// Credits the run took.
        public var creditsCharged: Int

        /// An answer.
        public init(eventId: String?, status: String, result: JSONValue?, error: ReportError? = nil, creditsCharged: Int) {
            self.eventId = eventId
            self.status = status
            self.result = result
            self.error = error
            self.creditsCharged = creditsCharged
        }
    }

    /// A run as `GET workflows/reports/v1/:eventId`, the history and the stream show it.
    public struct Report: Codable, Sendable, Equatable {
        /// The run's id.
        public var eventId: String
        /// The workflow it ran.
        public var workflowId: String
        /// `queued`, `running`, `succeeded`, `failed` or `timed_out`.
        public var status: String
        /// The result once it succeeded; `null` until then.
        @ExplicitNull public var result: JSONValue?
        /// Why it failed or timed out; `null` otherwise.
        @ExplicitNull public var error: ReportError?
        /// Credits it took.
        public var creditsCharged: Int
        /// Credits given back after a failure or timeout.
        public var creditsRefunded: Int
        /// When it was asked for.
        public var createdAt: String
        /// When it first started; `null` while queued.
        @ExplicitNull public var startedAt: String?
        /// When it finished; `null` until it has.
        @ExplicitNull public var finishedAt: String?

        /// A report.
        public init(
            eventId: String, workflowId: String, status: String, result: JSONValue?, error: ReportError?, creditsCharged: Int,
            creditsRefunded: Int, createdAt: String, startedAt: String?, finishedAt: String?
        ) {
            self.eventId = eventId
            self.workflowId = workflowId
            self.status = status
            self.result = result
            self.error = error
            self.creditsCharged = creditsCharged
            self.creditsRefunded = creditsRefunded
            self.createdAt = createdAt
            self.startedAt = startedAt
            self.finishedAt = finishedAt
        }

        /// Whether the run has finished, one way or another.
        public var isFinished: Bool { ["succeeded", "failed", "timed_out"].contains(status) }
    }

    /// `{code, message}` of a failed run.
    public struct ReportError: Codable, Sendable, Equatable {
        /// A stable code: `EXECUTOR_FAILED`, `WORKER_REFUSED`, `TIMED_OUT`, …
        public var code: String
        /// Text for people.
        public var message: String

        /// A run's error.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }
}
