import Foundation
import GatehouseDatabase

/// The lifecycle states of a verification; only `pending` still changes.
public enum VerificationStatus: String, Sendable, CaseIterable {
    case pending, verified, failed, expired, denied
}

/// One verification as stored, with what a reader sees at a given time.
public struct VerificationRecord: Sendable, Equatable {
    public let id: String
    public let tenantId: String
    public let applicationId: String
    /// Digits only, no `+`.
    public let destination: String
    public let channel: VerificationChannel
    let storedStatus: VerificationStatus
    let storedErrorCode: String?
    public let codeLength: Int
    public let attempts: Int
    public let maxAttempts: Int
    public let feeMicros: Int64
    public let language: String?
    /// The provider that took the code (`twilio`, `vonage`), and its id for the message; nil
    /// for the outbox, the webhook bridge, or before dispatch.
    public let provider: String?
    public let providerMessageId: String?
    public let template: String?
    public let templateGroup: String?
    public let templateGroupUsed: Bool
    public let templateFallbackReason: String?
    public let autofillType: String?
    public let autofillValue: String?
    public let interceptionTimeout: Int
    public let createdAt: Date
    public let expiresAt: Date
    public let dispatchedAt: Date?
    public let finishedAt: Date?
    /// Where the pumping guard counted the code (nil for email and for starts that sent nothing).
    let destinationPrefix: String?
    let destinationCountry: String?

    init(row: Row) throws {
        id = try row.get("id")
        tenantId = try row.get("tenant_id")
        applicationId = try row.get("application_id")
        destination = try row.get("destination")
        channel = VerificationChannel(rawValue: try row.get("channel")) ?? .sms
        storedStatus = VerificationStatus(rawValue: try row.get("status")) ?? .failed
        storedErrorCode = try row.get("error_code")
        codeLength = try row.get("code_length")
        attempts = try row.get("attempts")
        maxAttempts = try row.get("max_attempts")
        feeMicros = try row.get("fee_micros")
        language = try row.get("language")
        template = try row.get("template")
        templateGroup = try row.get("template_group")
        templateGroupUsed = try row.get("template_group_used")
        templateFallbackReason = try row.get("template_fallback_reason")
        autofillType = try row.get("autofill_type")
        autofillValue = try row.get("autofill_value")
        interceptionTimeout = try row.get("interception_timeout")
        createdAt = try row.get("created_at")
        expiresAt = try row.get("expires_at")
        dispatchedAt = try row.get("dispatched_at")
        finishedAt = try row.get("finished_at")
        provider = try row.get("provider")
        providerMessageId = try row.get("provider_message_id")
        destinationPrefix = try row.get("destination_prefix")
        destinationCountry = try row.get("destination_country")
    }

    /// The status at `now`: a pending verification past its deadline reads as expired
    /// without anything being written.
    public func status(at now: Date) -> VerificationStatus {
        storedStatus == .pending && now >= expiresAt ? .expired : storedStatus
    }

    /// The outcome at `now`; `nil` while pending and once verified.
    public func outcome(at now: Date) -> VerificationOutcome? {
        if storedStatus == .pending { return now >= expiresAt ? .expired : nil }
        return storedErrorCode.flatMap(VerificationOutcome.init(rawValue:))
    }

    /// The stored outcome as written (kept even if this binary does not know it).
    public func storedOutcome(at now: Date) -> String? {
        if storedStatus == .pending { return now >= expiresAt ? VerificationOutcome.expired.rawValue : nil }
        return storedErrorCode
    }
}
