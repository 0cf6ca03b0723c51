import Foundation

/// The handle `start(...)` returns: identifier, channel, expiry, quoted fee and the status at creation.
///
/// The status is a snapshot from the start response and is never updated; call
/// `status(_:)` for the current state. A start can come back `.denied` with HTTP 201, so
/// check ``status`` before showing a code-entry screen.
public struct Verification: Sendable, Equatable {
    /// The verification's identifier (a UUID string), used in the by-id paths.
    public let id: String
    /// The destination as the server stored it (digits only).
    public let destination: String
    /// The channel the code is delivered over; sent back with every code report.
    public let deliveryMethod: DeliveryMethod
    /// When the verification expires; always present on a start response.
    public let expiresAt: Date
    /// The status when the verification was created.
    public let status: Status
    /// The raw outcome code (`error_code`), or `nil` on a healthy start.
    public let errorCode: String?
    /// The fixed outcome text (`error_detail`), or `nil`.
    public let errorDetail: String?
    /// The quoted verification fee, VAT included; billed only when the verification is verified.
    public let fee: Decimal?
    /// The channel-specific block of the response, or `nil` when none was returned.
    public let details: Details?

    /// The typed outcome for ``errorCode``; an unknown code becomes `.other(raw)`.
    public var reason: Reason? { errorCode.map(Reason.init(wireValue:)) }

    /// Whether ``expiresAt`` has passed by the device clock; the server stays authoritative.
    public var isExpired: Bool { Date() >= expiresAt }

    /// Creates a handle; the outcome fields default to a healthy pending start.
    public init(
        id: String,
        destination: String,
        deliveryMethod: DeliveryMethod,
        expiresAt: Date,
        status: Status = .pending,
        errorCode: String? = nil,
        errorDetail: String? = nil,
        fee: Decimal? = nil,
        details: Details? = nil
    ) {
        self.id = id
        self.destination = destination
        self.deliveryMethod = deliveryMethod
        self.expiresAt = expiresAt
        self.status = status
        self.errorCode = errorCode
        self.errorDetail = errorDetail
        self.fee = fee
        self.details = details
    }
}
