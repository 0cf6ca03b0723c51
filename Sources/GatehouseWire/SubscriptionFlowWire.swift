/// Wire types of the SubscriptionFlow mobile-stores dialect (seed 003): every answer is
/// `{"status": true, "data": …}` or `{"status": false, "code", "message"}`; timestamps end in `+00:00`.
public enum SubscriptionFlowWire {
    /// A success: `{"status": true, "data": …}`.
    public struct Envelope<Payload: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        /// Always `true`.
        public var status: Bool
        /// The answer itself.
        public var data: Payload

        /// A success envelope.
        public init(status: Bool = true, data: Payload) {
            self.status = status
            self.data = data
        }
    }

    /// A refusal: `{"status": false, "code", "message"}`.
    public struct Failure: Codable, Sendable, Equatable {
        /// Always `false`.
        public var status: Bool
        /// The stable code (`PURCHASE_REFUSED`).
        public var code: String
        /// A sentence for people.
        public var message: String

        /// A refusal.
        public init(status: Bool = false, code: String, message: String) {
            self.status = status
            self.code = code
            self.message = message
        }
    }
}
