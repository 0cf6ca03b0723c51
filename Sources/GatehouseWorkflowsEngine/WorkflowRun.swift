import Foundation
import GatehouseDatabase
import GatehouseFormats

/// A run as its report shows it.
public struct WorkflowRun: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case queued, running, succeeded, failed
        case timedOut = "timed_out"
        public var isFinished: Bool { self == .succeeded || self == .failed || self == .timedOut }
    }

    public let id: String
    public let tenantID: String
    public let accountID: String
    public let workflowID: String
    public let status: Status
    public let input: [String: JSONValue]
    public let files: [RunFile]
    public let credits: Int
    public let creditsRefunded: Int
    public let attempts: Int
    public let result: JSONValue?
    public let errorCode: String?
    public let errorMessage: String?
    public let createdAt: Date
    public let startedAt: Date?
    public let finishedAt: Date?
    let leaseOwner: String?
    let deadline: Date?

    init(row: Row) throws {
        id = try row.get("id")
        tenantID = try row.get("tenant_id")
        accountID = try row.get("account_id")
        workflowID = try row.get("workflow_id")
        status = Status(rawValue: try row.get("status")) ?? .failed
        input = try WorkflowsEngine.decode(try row.get("input"))
        files = try WorkflowsEngine.decode(try row.get("files"))
        credits = try row.get("credits")
        creditsRefunded = try row.get("credits_refunded")
        attempts = try row.get("attempts")
        result = try (try row.get("result", as: String?.self)).map { try JSONValue(parsing: Data($0.utf8), maxDepth: 128) }
        errorCode = try row.get("error_code")
        errorMessage = try row.get("error_message")
        createdAt = try row.get("created_at")
        startedAt = try row.get("started_at")
        finishedAt = try row.get("finished_at")
        leaseOwner = try row.get("lease_owner")
        deadline = try row.get("deadline_at")
    }
}
