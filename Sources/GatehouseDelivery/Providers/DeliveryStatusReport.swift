import GatehouseCore

/// What a provider's signed status callback said about a message it took: delivered or not.
public struct DeliveryStatusReport: Sendable, Equatable {
    /// `twilio` or `vonage`, as in the `DeliveryReceipt`.
    public let provider: String
    /// The provider's id of the message or call, as in the `DeliveryReceipt`.
    public let messageId: String
    /// True for delivered (a call: completed); false for failed, undelivered, busy, unanswered…
    public let delivered: Bool
    /// The provider's own status word and error code, for logs and the admin view.
    public let detail: String?

    public init(provider: String, messageId: String, delivered: Bool, detail: String?) {
        self.provider = provider
        self.messageId = messageId
        self.delivered = delivered
        self.detail = detail
    }
}

/// Why a status callback was not believed. A receiver answers every case alike (403, say)
/// and records nothing.
public enum DeliveryCallbackRefusal: Error, Equatable, CustomStringConvertible {
    /// No signature came with it.
    case unsigned
    /// A signature came but does not match.
    case badSignature
    /// Signed, but too old (or from the future) to be accepted.
    case stale
    /// Signed correctly, but not a status callback this code can read.
    case malformed(String)

    public var description: String {
        switch self {
        case .unsigned: "status callback is not signed"
        case .badSignature: "status callback signature does not match"
        case .stale: "status callback is outside the accepted time window"
        case .malformed(let reason): "status callback is malformed: \(reason)"
        }
    }
}
