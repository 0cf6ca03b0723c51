import Foundation

/// The state `verify(...)` and `status(...)` return: the verification as the server sees it now.
public struct VerificationResult: Sendable, Equatable {
    /// The verification's identifier (a UUID string).
    public let id: String
    /// The destination as the server stored it (digits only).
    public let destination: String
    /// The channel the code is delivered over.
    public let deliveryMethod: DeliveryMethod
    /// The quoted verification fee, VAT included.
    public let fee: Decimal?
    /// The current status.
    public let status: Verification.Status
    /// The typed outcome for ``errorCode``, or `nil` while pending and once verified.
    public let reason: Verification.Reason?
    /// The raw outcome code (`error_code`), or `nil`.
    public let errorCode: String?
    /// The fixed outcome text (`error_detail`), or `nil`.
    public let errorDetail: String?
    /// When the verification expires, or `nil` when the response carries no usable value.
    public let expiresAt: Date?
    /// The channel-specific block of the response, or `nil`.
    public let details: Verification.Details?

    /// Creates a result; the optional fields default to `nil`.
    public init(
        id: String,
        destination: String,
        deliveryMethod: DeliveryMethod,
        fee: Decimal? = nil,
        status: Verification.Status,
        reason: Verification.Reason? = nil,
        errorCode: String? = nil,
        errorDetail: String? = nil,
        expiresAt: Date? = nil,
        details: Verification.Details? = nil
    ) {
        self.id = id
        self.destination = destination
        self.deliveryMethod = deliveryMethod
        self.fee = fee
        self.status = status
        self.reason = reason
        self.errorCode = errorCode
        self.errorDetail = errorDetail
        self.expiresAt = expiresAt
        self.details = details
    }
}
